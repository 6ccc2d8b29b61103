/**
 * Every evaluation type's definition, server-side (the browser-safe parts are specs.ts and
 * config-schema.ts). Adding a type: its folder, then one line here, one in specs.ts and one in
 * config-schema.ts; the type checker names a missing one, and
 * tests/unit/evaluator/evaluation-types.test.ts checks the three agree.
 */
import type { EvaluatorConfigOf } from './config-schema'
import { evaluationTypes, type EvaluationType } from './specs'
import type { EvaluationTypeDefinition } from './types'
import { scoringType } from './scoring'
import { criteriaType } from './criteria'
import { comparisonType } from './comparison'
import { rubricType } from './rubric'
import { metricsType } from './metrics'
import { scorersType } from './scorers'
import { traceType } from './trace'

const definitions = {
  scoring: scoringType,
  criteria: criteriaType,
  comparison: comparisonType,
  rubric: rubricType,
  metrics: metricsType,
  scorers: scorersType,
  trace: traceType,
} satisfies { [T in EvaluationType]: EvaluationTypeDefinition<EvaluatorConfigOf<T>, any> }

/** In the order of the editor's list. */
export const evaluationTypeDefinitions: readonly EvaluationTypeDefinition<any, any>[] = evaluationTypes.map(type => definitions[type])

export function evaluationTypeDefinition(type: EvaluationType): EvaluationTypeDefinition<any, any> {
  return definitions[type]
}

/** The definition of a type named by a config not checked yet (a step's), if it is one. */
export function findEvaluationType(type: unknown): EvaluationTypeDefinition<any, any> | undefined {
  return typeof type === 'string' && Object.hasOwn(definitions, type) ? definitions[type as EvaluationType] : undefined
}
