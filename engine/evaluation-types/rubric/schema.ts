import { z } from 'zod'
import { criteriaFields } from '../criteria/schema'

export const rubricGradeSchema = z.object({
  grade: z.string().min(1, 'is required').max(16),
  min_score: z.number().min(0, 'must be at least 0').max(1, 'must be at most 1'),
  description: z.string().max(2000).optional(),
})
export type RubricGrade = z.infer<typeof rubricGradeSchema>

export const rubricFields = {
  ...criteriaFields,
  rubric: z.object({ grades: z.array(rubricGradeSchema).min(1, 'needs at least one grade').max(20) }).optional(),
}
