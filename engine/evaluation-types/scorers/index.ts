import type { EvaluatorConfigOf } from '../config-schema'
import { defineEvaluationType } from '../types'
import type { ScorerConfig } from '../../schema/scorers'
import { evaluateScorers, resolveScorers } from './evaluate'
import { scorersFields } from './schema'
import { scorersSpec } from './spec'

export const scorersType = defineEvaluationType<EvaluatorConfigOf<'scorers'>, ScorerConfig[]>({
  ...scorersSpec,
  fields: scorersFields,
  exclusive: [['scorers', 'preset']],
  resolve(config, problems) {
    if (!config.scorers?.length && !config.preset) problems.push({ path: 'scorers', message: 'give a list of scorers or a preset (standard, strict, operation-focused)' })
    if (config.scorers?.length && config.preset) problems.push({ path: 'preset', message: 'give either scorers or a preset, not both' })
  },
  prepare: (config, registries) => resolveScorers(config, registries.scorers),
  evaluate: (ctx, scorers) => evaluateScorers(ctx, scorers, ctx.scorers),
})
