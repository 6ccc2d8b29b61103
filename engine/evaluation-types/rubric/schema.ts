import { z } from 'zod'
import { DEFAULT_GRADES } from '../../evaluator/arithmetic'
import { strictObject } from '../../schema/unknown-keys'
import type { ConfigProblem } from '../checks'
import { criteriaFields, OVERALL_CRITERION } from '../criteria/schema'
import type { ConfigOf } from '../shared-fields'
import type { EvaluationTypeChecks, RubricGrade } from '../parts'

export const rubricGradeSchema = strictObject({
  grade: z.string().min(1, 'is required').max(16),
  min_score: z.number().min(0, 'must be at least 0').max(1, 'must be at most 1'),
  description: z.string().max(2000).optional(),
}) satisfies z.ZodType<RubricGrade>
export type { RubricGrade }

export const rubricFields = {
  ...criteriaFields,
  rubric: strictObject({ grades: z.array(rubricGradeSchema).min(1, 'needs at least one grade').max(20) }).optional(),
}

/** The bands, sorted high to low: no grade twice, no two at one min_score, and the lowest from 0. */
export function checkGrades(grades: readonly RubricGrade[], problems: ConfigProblem[]): RubricGrade[] {
  const seen = new Set<string>()
  const minScores = new Set<number>()
  grades.forEach((band, i) => {
    if (seen.has(band.grade)) problems.push({ path: `rubric.grades[${i}].grade`, message: `grade "${band.grade}" appears more than once` })
    if (minScores.has(band.min_score)) problems.push({ path: `rubric.grades[${i}].min_score`, message: `${band.min_score} is the min_score of another grade too: the bands overlap` })
    seen.add(band.grade)
    minScores.add(band.min_score)
  })
  const sorted = [...grades].sort((a, b) => b.min_score - a.min_score)
  if (sorted.length && sorted.at(-1)!.min_score > 0) {
    problems.push({ path: 'rubric.grades', message: `scores below ${sorted.at(-1)!.min_score} have no grade: give the lowest grade min_score 0` })
  }
  return sorted
}

export const rubricChecks: EvaluationTypeChecks<ConfigOf<'rubric', typeof rubricFields>> = {
  resolve: (config, problems) => ({
    criteria: config.criteria?.length ? config.criteria : [{ ...OVERALL_CRITERION }],
    grades: checkGrades(config.rubric?.grades ?? DEFAULT_GRADES, problems),
  }),
}
