import type { Criterion } from '../../schema/evaluator'
import type { EvaluatorConfigOf } from '../config-schema'
import { defineEvaluationType } from '../types'
import { evaluateCriteria } from './evaluate'
import { criteriaFields } from './schema'
import { criteriaSpec } from './spec'

/** The one criterion judged when a config gives none (scoring always; rubric and comparison by default). */
export const OVERALL_CRITERION: Criterion = { name: 'overall', description: 'Overall quality of the response for the question or context.' }

export const criteriaType = defineEvaluationType<EvaluatorConfigOf<'criteria'>>({
  ...criteriaSpec,
  fields: criteriaFields,
  resolve(config, problems) {
    const criteria = config.criteria ?? []
    if (!criteria.length) problems.push({ path: 'criteria', message: 'needs at least one criterion for evaluation_type "criteria"' })
    return { criteria }
  },
  evaluate: ctx => evaluateCriteria(ctx),
})
