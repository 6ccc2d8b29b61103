import type { EvaluatorConfigOf } from '../config-schema'
import { OVERALL_CRITERION } from '../criteria'
import { evaluateCriteria } from '../criteria/evaluate'
import { defineEvaluationType } from '../types'
import { scoringFields } from './schema'
import { scoringSpec } from './spec'

/** One overall score: the criteria given become the description of the one criterion judged. */
export const scoringType = defineEvaluationType<EvaluatorConfigOf<'scoring'>>({
  ...scoringSpec,
  fields: scoringFields,
  resolve(config) {
    const description = (config.criteria ?? []).map(c => c.description ?? c.name).join('; ')
    return { criteria: [{ name: 'overall', description: description || OVERALL_CRITERION.description, weight: 1 }] }
  },
  evaluate: ctx => evaluateCriteria(ctx),
})
