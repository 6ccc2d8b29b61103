import { z } from 'zod'
import { criteriaFields } from '../criteria/schema'

export const comparisonFields = {
  ...criteriaFields,
  /** The candidates, usually references such as `{{steps.a.text}}`. */
  compare_inputs: z.array(z.unknown()).optional(),
}
