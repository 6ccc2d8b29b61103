import { z } from 'zod'
import { strictObject } from '../../schema/unknown-keys'
import type { ConfigOf } from '../shared-fields'
import type { Criterion, EvaluationTypeChecks } from '../parts'

export const criterionSchema = strictObject({
  name: z.string().min(1, 'is required').max(80).regex(/^[\w][\w .-]*$/, 'must be letters, digits, spaces, "_", "-" or "."')
    .refine(name => !['__proto__', 'constructor', 'prototype'].includes(name), 'is a reserved name'),
  description: z.string().max(2000).optional(),
  weight: z.number().min(0, 'must be at least 0').max(1, 'must be at most 1').optional(),
}) satisfies z.ZodType<Criterion>
export type { Criterion }

/** The criteria, with weights (all or none; none means equal weights). Scoring, rubric and comparison take them too. */
export const criteriaFields = {
  criteria: z.array(criterionSchema).max(50).optional(),
}

/** The one criterion judged when a config gives none (scoring always; rubric and comparison by default). */
export const OVERALL_CRITERION: Criterion = { name: 'overall', description: 'Overall quality of the response for the question or context.' }

export const criteriaChecks: EvaluationTypeChecks<ConfigOf<'criteria', typeof criteriaFields>> = {
  resolve(config, problems) {
    const criteria = config.criteria ?? []
    if (!criteria.length) problems.push({ path: 'criteria', message: 'needs at least one criterion for evaluation_type "criteria"' })
    return { criteria }
  },
}
