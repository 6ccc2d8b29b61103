import { z } from 'zod'
import { criteriaFields, OVERALL_CRITERION } from '../criteria/schema'
import type { ConfigOf } from '../shared-fields'
import type { EvaluationTypeChecks } from '../parts'

export const comparisonFields = {
  ...criteriaFields,
  /** The candidates, usually references such as `{{steps.a.text}}`. */
  compare_inputs: z.array(z.unknown()).optional(),
}

/** How many candidates a comparison ranks at least. */
export const MIN_CANDIDATES = 2

export const comparisonChecks: EvaluationTypeChecks<ConfigOf<'comparison', typeof comparisonFields>> = {
  resolve: config => ({ criteria: config.criteria?.length ? config.criteria : [{ ...OVERALL_CRITERION }] }),
  checkInputs: (_config, { candidates }) => (candidates === undefined || candidates >= MIN_CANDIDATES
    ? []
    : [{
        path: 'compare_inputs',
        message: `needs at least ${MIN_CANDIDATES} candidates, not ${candidates}: list them in compare_inputs (e.g. ["{{steps.a.text}}", "{{steps.b.text}}"]), or wire ${MIN_CANDIDATES} or more LLM steps into this step and leave compare_inputs out`,
      }]),
}
