import type { EvaluatorConfigOf } from '../config-schema'
import { defineEvaluationType } from '../types'
import { needsOf } from '../../assertions/registry'
import { DEFAULT_EMBEDDING_MODEL } from '../../assertions/types'
import { evaluateAssertions } from './evaluate'
import { assertionsChecks, assertionsFields } from './schema'
import { assertionsSpec } from './spec'

type Config = EvaluatorConfigOf<'assertions'> & { model: string }

/**
 * The models the assertions call: the grader for model-graded ones, the embedding model for
 * similarity (by reference: the grader, and the embedding model when named).
 */
function calledModels(config: Config): string[] {
  const needs = Array.isArray(config.assert) ? needsOf(config.assert) : undefined
  const models: string[] = []
  if (!needs || needs.has('grader')) models.push(config.model)
  if (needs ? needs.has('embeddings') : config.embedding_model !== undefined) models.push(config.embedding_model ?? DEFAULT_EMBEDDING_MODEL)
  return models.filter(model => !model.startsWith('local:'))
}

export const assertionsType = defineEvaluationType<EvaluatorConfigOf<'assertions'>>({
  ...assertionsSpec,
  fields: assertionsFields,
  ...assertionsChecks,
  models: config => calledModels(config as Config),
  checkModels(config, _prepared, providers) {
    // Assertions given by reference are known only when the step runs: their models are checked then, by the call.
    if (!Array.isArray(config.assert)) return
    for (const model of calledModels(config as Config)) providers.check(model, 'the evaluator\'s assertions', 'Set it in the environment, or name another grader.')
  },
  // Its own rule, not the models': only assertions that need nothing beside the output go to a worker thread,
  // which has no code sandbox; a grader, even the offline one, is asked in place.
  offline: config => Array.isArray(config.assert) && needsOf(config.assert).size === 0,
  evaluate: ctx => evaluateAssertions(ctx),
})
