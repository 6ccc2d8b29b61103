import type { EvaluatorConfigOf } from '../config-schema'
import { defineEvaluationType } from '../types'
import { needsOf } from '../../assertions/registry'
import { evaluateAssertions } from './evaluate'
import { assertionsChecks, assertionsFields } from './schema'
import { assertionsSpec } from './spec'

export const assertionsType = defineEvaluationType<EvaluatorConfigOf<'assertions'>>({
  ...assertionsSpec,
  fields: assertionsFields,
  ...assertionsChecks,
  // Only model-graded assertions call the grader: without them no key is needed.
  models: config => (Array.isArray(config.assert) && !needsOf(config.assert).has('grader') ? [] : [config.model]),
  checkModels(config, _prepared, providers) {
    if (Array.isArray(config.assert) && !needsOf(config.assert).has('grader')) return
    if (!config.model.startsWith('local:')) providers.check(config.model, 'the evaluator\'s model-graded assertions', 'Set it in the environment, or name another grader.')
  },
  offline: config => Array.isArray(config.assert) && needsOf(config.assert).size === 0,
  evaluate: ctx => evaluateAssertions(ctx),
})
