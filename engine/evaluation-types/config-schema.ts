/**
 * The evaluator config: a union keyed on `evaluation_type`, one variant per type, each the shared
 * settings plus the type's own fields (its `schema.ts`). Browser-safe: the editor's validation
 * worker and the server validate with it.
 *
 * A variant also validates the fields of the other types, then sets them aside: a workflow keeps
 * the criteria it had when its evaluator is switched to scorers, say, and is not refused for it. The
 * config check (engine/evaluator/config.ts) names the ones that are a mistake ("is only used by
 * evaluation_type …").
 */
import { z } from 'zod'
import { strictObject } from '../schema/unknown-keys'
import { evaluationTypes, type EvaluationType } from './specs'
import type { EvaluationTypeChecks } from './parts'
import { sharedFields, type ConfigOf } from './shared-fields'
import { typeChecks, typeFields } from './schemas.generated'

/** Each type's own fields (its schema.ts), in the order of the editor's list. */
export const evaluationTypeFields = Object.fromEntries(evaluationTypes.map(type => [type, typeFields[type]])) as
  typeof typeFields satisfies Record<EvaluationType, z.ZodRawShape>

/** Each type's checks beyond its schema (its schema.ts): run by a run's config check and by the editor's validation. */
export const evaluationTypeChecks: { [T in EvaluationType]: EvaluationTypeChecks<EvaluatorConfigOf<T>> } = typeChecks

export { sharedFields }

type UnionToIntersection<U> = (U extends unknown ? (x: U) => void : never) extends (x: infer I) => void ? I : never
type AllFields = UnionToIntersection<(typeof evaluationTypeFields)[EvaluationType]>

/** Every type's fields, in the registry's order: each variant accepts them all, in this order. */
const allFields = Object.assign({}, ...Object.values(evaluationTypeFields)) as AllFields

type Variant<T extends EvaluationType, S extends z.ZodRawShape> = ConfigOf<T, S>

function variant<T extends EvaluationType, S extends z.ZodRawShape>(type: T, own: S) {
  const setAside = Object.keys(allFields).filter(key => !(key in own))
  return strictObject({ evaluation_type: z.literal(type), ...sharedFields, ...allFields }, 'the evaluator config').transform((config) => {
    const kept: Record<string, unknown> = { ...config }
    for (const key of setAside) delete kept[key]
    return kept as Variant<T, S>
  })
}

type AnyVariant = { [T in EvaluationType]: ReturnType<typeof variant<T, (typeof evaluationTypeFields)[T]>> }[EvaluationType]

export const evaluatorConfigSchema = z.discriminatedUnion(
  'evaluation_type',
  evaluationTypes.map(type => variant(type, evaluationTypeFields[type])) as unknown as [AnyVariant, ...AnyVariant[]],
  { error: issue => (issue.code === 'invalid_union' ? `must be one of ${evaluationTypes.join(', ')}` : undefined) },
)
export type EvaluatorConfig = z.output<typeof evaluatorConfigSchema>
export type EvaluatorConfigInput = z.input<typeof evaluatorConfigSchema>
/** The config of one type. */
export type EvaluatorConfigOf<T extends EvaluationType> = Extract<EvaluatorConfig, { evaluation_type: T }>
