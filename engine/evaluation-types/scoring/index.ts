import type { EvaluatorConfigOf } from '../config-schema'
import { evaluateCriteria } from '../criteria/evaluate'
import { defineEvaluationType } from '../types'
import { scoringChecks, scoringFields } from './schema'
import { scoringSpec } from './spec'

/** One overall score: the criteria given become the description of the one criterion judged. */
export const scoringType = defineEvaluationType<EvaluatorConfigOf<'scoring'>>({
  ...scoringSpec,
  fields: scoringFields,
  ...scoringChecks,
  evaluate: ctx => evaluateCriteria(ctx),
})
