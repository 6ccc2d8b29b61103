import { DEFAULT_GRADES } from '../../evaluator/arithmetic'
import type { ConfigProblem } from '../checks'
import type { EvaluatorConfigOf } from '../config-schema'
import { OVERALL_CRITERION } from '../criteria'
import { evaluateCriteria } from '../criteria/evaluate'
import { defineEvaluationType } from '../types'
import { rubricFields, type RubricGrade } from './schema'
import { rubricSpec } from './spec'

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

/** Criteria scores as for criteria, the overall score mapped onto the grade bands (A–F unless given). */
export const rubricType = defineEvaluationType<EvaluatorConfigOf<'rubric'>>({
  ...rubricSpec,
  fields: rubricFields,
  resolve: (config, problems) => ({
    criteria: config.criteria?.length ? config.criteria : [{ ...OVERALL_CRITERION }],
    grades: checkGrades(config.rubric?.grades ?? DEFAULT_GRADES, problems),
  }),
  evaluate: ctx => evaluateCriteria(ctx),
})
