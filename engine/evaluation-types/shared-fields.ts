/**
 * The settings every evaluation type takes, and the config of one type as its schema.ts sees it:
 * these and its own fields. Apart from config-schema.ts (which builds the union of all types from
 * each type's fields) so that a type's schema.ts can name its own config without importing the union.
 */
import { z } from 'zod'
import { llmParams } from './llm-params'
import { MAX_PANEL_JUDGES } from './spec'

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
  /** A judge panel: each `provider:model` asked the same question in parallel (instead of `model`). */
  judges: z.array(z.string().min(1)).min(2, 'a panel has at least 2 judges').max(MAX_PANEL_JUDGES, `a panel has at most ${MAX_PANEL_JUDGES} judges`).optional(),
  /** How a panel's verdict is reached: `majority` of the judges' verdicts (a tie fails) or the `mean` score. */
  panel: z.strictObject({ aggregate: z.enum(['majority', 'mean']).default('majority') }).optional(),
}

/** One type's config: `evaluation_type`, the shared settings and its own fields `S` (its schema.ts), after parsing. */
export type ConfigOf<T extends string, S extends z.ZodRawShape> = z.output<z.ZodObject<{ evaluation_type: z.ZodLiteral<T> } & typeof sharedFields & S>>
