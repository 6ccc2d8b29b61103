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
import { llmParams } from './llm-params'
import { evaluationTypes, type EvaluationType } from './specs'
import type { EvaluationTypeChecks } from './types'
import { typeChecks, typeFields } from './schemas.generated'

/** Each type's own fields (its schema.ts), in the order of the editor's list. */
export const evaluationTypeFields = Object.fromEntries(evaluationTypes.map(type => [type, typeFields[type]])) as
  typeof typeFields satisfies Record<EvaluationType, z.ZodRawShape>

/** Each type's checks beyond its schema (its schema.ts): run by a run's config check and by the editor's validation. */
export const evaluationTypeChecks: { [T in EvaluationType]: EvaluationTypeChecks<EvaluatorConfigOf<T>> } = typeChecks

/** What every type takes. */
export const sharedFields = {
  /** `provider:model`, or a model name with `provider`; defaults to the server's default judge. */
  model: z.string().min(1).optional(),
  provider: llmParams.provider,
  pass_threshold: z.number().min(0, 'must be at least 0').max(1, 'must be at most 1').default(0.7),
  include_feedback: z.boolean().default(true),
  /** The judge's temperature (0 when not given). */
  temperature: z.number().min(0, 'must not be negative').max(2).optional(),
  max_tokens: z.number().int().positive().optional(),
  /** Re-asks of the judge after an invalid answer (bad JSON, a missing criterion, a score out of range). */
  max_retries: z.number().int().min(0).max(10).optional(),
  /** Ask the judge n times and report the spread; the scores are the mean. */
  samples: z.number().int().min(1).max(10).default(1),
  /** One judge call per criterion instead of one for all. */
  per_criterion: z.boolean().default(false),
  /**
   * Judge calls at once (criteria, comparison orders, samples: 4 when not given). The metric
   * suite judges one metric after another unless `concurrency` is given.
   */
  concurrency: z.number().int().min(1).max(16).optional(),
  /** One judge call at a time, in order, whatever `concurrency` says. */
  sequential: z.boolean().optional(),
  /** `false` asks the judge anew even for an identical input. */
  cache: z.boolean().optional(),
}

type UnionToIntersection<U> = (U extends unknown ? (x: U) => void : never) extends (x: infer I) => void ? I : never
type AllFields = UnionToIntersection<(typeof evaluationTypeFields)[EvaluationType]>

/** Every type's fields, in the registry's order: each variant accepts them all, in this order. */
const allFields = Object.assign({}, ...Object.values(evaluationTypeFields)) as AllFields

type Variant<T extends EvaluationType, S extends z.ZodRawShape> = z.output<z.ZodObject<{ evaluation_type: z.ZodLiteral<T> } & typeof sharedFields & S>>

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
