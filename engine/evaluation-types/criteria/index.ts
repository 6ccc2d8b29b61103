import type { EvaluatorConfigOf } from '../config-schema'
import { defineEvaluationType } from '../types'
import { evaluateCriteria } from './evaluate'
import { criteriaChecks, criteriaFields, OVERALL_CRITERION } from './schema'
import { criteriaSpec } from './spec'

export { OVERALL_CRITERION }

export const criteriaType = defineEvaluationType<EvaluatorConfigOf<'criteria'>>({
  ...criteriaSpec,
  fields: criteriaFields,
  ...criteriaChecks,
  evaluate: ctx => evaluateCriteria(ctx),
})
