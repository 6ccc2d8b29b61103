import type { EvaluatorConfigOf } from '../config-schema'
import { defineEvaluationType } from '../types'
import type { ScorerConfig } from '../../schema/scorers'
import { evaluateScorers, resolveScorers } from './evaluate'
import { scorersChecks, scorersFields } from './schema'
import { scorersSpec } from './spec'

export const scorersType = defineEvaluationType<EvaluatorConfigOf<'scorers'>, ScorerConfig[]>({
  ...scorersSpec,
  fields: scorersFields,
  ...scorersChecks,
  prepare: (config, registries) => resolveScorers(config, registries.scorers),
  evaluate: (ctx, scorers) => evaluateScorers(ctx, scorers, ctx.scorers),
})
