/**
 * Every evaluation type's definition, server-side (the browser-safe parts are specs.ts and
 * config-schema.ts). The types are the folders of engine/evaluation-types, listed by
 * `npm run generate:evaluation-types` in definitions.generated.ts; the type checker holds each
 * definition to its type's config, and tests/unit/evaluator/evaluation-types.test.ts checks the
 * lists are current and agree.
 */
import type { EvaluatorConfigOf } from './config-schema'
import { evaluationTypes, type EvaluationType } from './specs'
import type { EvaluationTypeDefinition } from './types'
import { typeDefinitions } from './definitions.generated'

const definitions = typeDefinitions satisfies { [T in EvaluationType]: EvaluationTypeDefinition<EvaluatorConfigOf<T>, any> }

/** In the order of the editor's list. */
export const evaluationTypeDefinitions: readonly EvaluationTypeDefinition<any, any>[] = evaluationTypes.map(type => definitions[type])

export function evaluationTypeDefinition(type: EvaluationType): EvaluationTypeDefinition<any, any> {
  return definitions[type]
}

/** The definition of a type named by a config not checked yet (a step's), if it is one. */
export function findEvaluationType(type: unknown): EvaluationTypeDefinition<any, any> | undefined {
  return typeof type === 'string' && Object.hasOwn(definitions, type) ? definitions[type as EvaluationType] : undefined
}
