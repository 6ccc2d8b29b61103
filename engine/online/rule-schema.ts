/**
 * An online rule as the API takes it (DESIGN.md, "Production traces: online scoring"): browser-safe,
 * so the page's form checks with the same schema as the server.
 */
import { z } from 'zod'
import { evaluatorConfigSchema } from '../evaluation-types/config-schema'

const text = (max: number) => z.string().trim().min(1, 'must not be empty').max(max, `must be at most ${max} characters`)

/** Attributes a filter may require at most. */
export const MAX_FILTER_ATTRIBUTES = 20

export const onlineFilterSchema = z.object({
  service_name: text(200).optional(),
  /** The request model or the response model. */
  model: text(200).optional(),
  span_name: text(500).optional(),
  attributes: z.record(text(200), z.union([z.string().max(1_000), z.number(), z.boolean()], { error: 'must be a string, a number or a boolean' }))
    .refine(map => Object.keys(map).length <= MAX_FILTER_ATTRIBUTES, `must name at most ${MAX_FILTER_ATTRIBUTES} attributes`)
    .optional(),
}).strict()

/** The evaluator a rule runs: an evaluator step of a saved workflow, or an evaluator config. */
export type OnlineEvaluatorRef = { workflow_id: string, step_id: string } | { config: Record<string, unknown> }

/** The evaluator: an evaluator step of a saved workflow (`workflow_id`, `step_id`), or an evaluator config (`config`). */
const evaluatorSchema = z.object({
  workflow_id: text(200).optional(),
  step_id: text(200).optional(),
  config: evaluatorConfigSchema.optional(),
}).strict().superRefine((ref, ctx) => {
  const saved = ref.workflow_id !== undefined || ref.step_id !== undefined
  if (saved && ref.config !== undefined) ctx.addIssue({ code: 'custom', message: 'give either workflow_id with step_id, or config, not both', path: ['config'] })
  else if (!saved && ref.config === undefined) ctx.addIssue({ code: 'custom', message: 'give workflow_id with step_id (a saved workflow\'s evaluator step), or config (an evaluator config)' })
  else if (saved && ref.workflow_id === undefined) ctx.addIssue({ code: 'custom', message: 'is required with step_id', path: ['workflow_id'] })
  else if (saved && ref.step_id === undefined) ctx.addIssue({ code: 'custom', message: 'is required with workflow_id', path: ['step_id'] })
}).transform((ref): OnlineEvaluatorRef => (ref.config !== undefined
  ? { config: ref.config as Record<string, unknown> }
  : { workflow_id: ref.workflow_id!, step_id: ref.step_id! }))

export const onlineRuleSchema = z.object({
  name: text(200),
  enabled: z.boolean().default(true),
  evaluator: evaluatorSchema,
  filter: onlineFilterSchema.default({}),
  /** 0–1: the share of the spans past the filter that are scored. */
  sample_rate: z.number({ error: 'is required: a number from 0 to 1' }).min(0, 'must be from 0 to 1').max(1, 'must be from 0 to 1'),
  /** Scorings started a minute at most; null for no limit. */
  max_per_minute: z.number().int('must be a whole number').min(1, 'must be at least 1').max(100_000, 'must be at most 100000').nullable().default(60),
  /** US dollars of judging a day at most; null for no budget. */
  max_cost_usd_per_day: z.number().positive('must be more than 0').max(1_000_000, 'must be at most 1000000').nullable().default(null),
}).strict()

export type OnlineRuleInput = z.input<typeof onlineRuleSchema>
export type OnlineRule = z.output<typeof onlineRuleSchema>
