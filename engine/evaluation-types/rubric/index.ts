import type { EvaluatorConfigOf } from '../config-schema'
import { evaluateCriteria } from '../criteria/evaluate'
import { defineEvaluationType } from '../types'
import { checkGrades, rubricChecks, rubricFields } from './schema'
import { rubricSpec } from './spec'

export { checkGrades }

/** Criteria scores as for criteria, the overall score mapped onto the grade bands (A–F unless given). */
export const rubricType = defineEvaluationType<EvaluatorConfigOf<'rubric'>>({
  ...rubricSpec,
  fields: rubricFields,
  ...rubricChecks,
  evaluate: ctx => evaluateCriteria(ctx),
})
