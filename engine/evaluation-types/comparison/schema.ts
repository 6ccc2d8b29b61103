import { z } from 'zod'
import { criteriaFields, OVERALL_CRITERION } from '../criteria/schema'
import type { EvaluatorConfigOf } from '../config-schema'
import type { EvaluationTypeChecks } from '../types'

export const comparisonFields = {
  ...criteriaFields,
  /** The candidates, usually references such as `{{steps.a.text}}`. */
  compare_inputs: z.array(z.unknown()).optional(),
}

export const comparisonChecks: EvaluationTypeChecks<EvaluatorConfigOf<'comparison'>> = {
  resolve: config => ({ criteria: config.criteria?.length ? config.criteria : [{ ...OVERALL_CRITERION }] }),
}
