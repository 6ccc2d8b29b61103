import { z } from 'zod'

export const criterionSchema = z.object({
  name: z.string().min(1, 'is required').max(80).regex(/^[\w][\w .-]*$/, 'must be letters, digits, spaces, "_", "-" or "."')
    .refine(name => !['__proto__', 'constructor', 'prototype'].includes(name), 'is a reserved name'),
  description: z.string().max(2000).optional(),
  weight: z.number().min(0, 'must be at least 0').max(1, 'must be at most 1').optional(),
})
export type Criterion = z.infer<typeof criterionSchema>

/** The criteria, with weights (all or none; none means equal weights). Scoring, rubric and comparison take them too. */
export const criteriaFields = {
  criteria: z.array(criterionSchema).max(50).optional(),
}
