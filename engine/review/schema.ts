/**
 * Review queues as the API takes them (DESIGN.md, "Human review: annotation queues"): browser-safe,
 * so the review page's forms check with the same schemas as the server.
 */
import { z } from 'zod'

const text = (max: number) => z.string().trim().min(1, 'must not be empty').max(max, `must be at most ${max} characters`)
const id = text(200)

/** Labels a rubric may offer at most: the keys 1–9 pick them. */
export const MAX_RUBRIC_LABELS = 9
/** Items one request adds at most. */
export const MAX_ITEMS_ADDED = 5_000

export const reviewerSchema = text(100).refine(name => !name.includes('\u0000'), 'must not contain a NUL character')

export const rubricSchema = z.object({
  labels: z.array(text(50)).min(2, 'must offer at least 2 labels').max(MAX_RUBRIC_LABELS, `must offer at most ${MAX_RUBRIC_LABELS} labels`)
    .refine(labels => new Set(labels).size === labels.length, 'must not repeat a label')
    .default(['pass', 'fail']),
  /** Whether a reviewer may give a 0–1 score beside the label. */
  score: z.boolean().default(false),
  comment: z.boolean().default(true),
}).strict()

/** Where a queue's items come from: a dataset run's cases, runs picked on the runs page, or an online rule's decisions. */
export const itemSourceSchema = z.discriminatedUnion('from', [
  z.object({
    from: z.literal('dataset_run'),
    dataset_run_id: id,
    /**
     * Which cases: all, failed (judged fail), disagreeing (its judge panel split, or its repeats' verdicts differ),
     * low_confidence (the judge's confidence under `max_confidence`), or a random `sample_size` of them.
     */
    select: z.enum(['all', 'failed', 'disagreeing', 'low_confidence', 'sample'], { error: 'must be one of all, failed, disagreeing, low_confidence, sample' }).default('all'),
    max_confidence: z.number().min(0, 'must be from 0 to 1').max(1, 'must be from 0 to 1').default(0.6),
    sample_size: z.number().int('must be a whole number').min(1, 'must be at least 1').max(MAX_ITEMS_ADDED, `must be at most ${MAX_ITEMS_ADDED}`).optional(),
    /** The sample's seed: the same seed picks the same cases. */
    seed: z.number().int('must be a whole number').default(1),
  }).strict(),
  z.object({
    from: z.literal('runs'),
    run_ids: z.array(id).min(1, 'must name at least one run').max(MAX_ITEMS_ADDED, `must name at most ${MAX_ITEMS_ADDED} runs`),
  }).strict(),
  z.object({
    from: z.literal('online'),
    rule_id: id,
    /** The decisions: scored (the default) or failed. */
    status: z.enum(['scored', 'failed'], { error: 'must be scored or failed' }).default('scored'),
    /** Only scores at most this (the low ones); none: every score. */
    max_score: z.number().min(0, 'must be from 0 to 1').max(1, 'must be from 0 to 1').optional(),
    limit: z.number().int('must be a whole number').min(1, 'must be at least 1').max(MAX_ITEMS_ADDED, `must be at most ${MAX_ITEMS_ADDED}`).default(500),
  }).strict(),
], { error: 'must say where the items come from: from is dataset_run, runs or online' }).superRefine((source, ctx) => {
  if (source.from === 'dataset_run' && source.select === 'sample' && source.sample_size === undefined) {
    ctx.addIssue({ code: 'custom', message: 'is required with select: sample', path: ['sample_size'] })
  }
})
export type ItemSource = z.infer<typeof itemSourceSchema>

export const reviewQueueSchema = z.object({
  name: text(200),
  rubric: rubricSchema.default({ labels: ['pass', 'fail'], score: false, comment: true }),
  instructions: z.string().max(10_000, 'must be at most 10000 characters').nullable().default(null),
  reviewers_per_item: z.number().int('must be a whole number').min(1, 'must be at least 1').max(20, 'must be at most 20').default(1),
  lease_minutes: z.number().int('must be a whole number').min(1, 'must be at least 1').max(1_440, 'must be at most 1440 (a day)').default(30),
  /** Whether reviewers see the judge's verdict (hidden by default, so it does not lead them). */
  show_judge: z.boolean().default(false),
  /** Items to add as the queue is created. */
  items: itemSourceSchema.optional(),
}).strict()
export type ReviewQueueInput = z.infer<typeof reviewQueueSchema>

/**
 * `reviewer` is who labels, leases or skips: the server takes the signed-in person's name when the
 * session names one (server/utils/people.ts), so the body may leave it out; otherwise it is required.
 */
export const nextItemSchema = z.object({ reviewer: reviewerSchema.optional() }).strict()

export const skipSchema = z.object({ item_id: id, reviewer: reviewerSchema.optional() }).strict()

export const labelSchema = z.object({
  item_id: id,
  reviewer: reviewerSchema.optional(),
  label: text(50),
  score: z.number().min(0, 'must be from 0 to 1').max(1, 'must be from 0 to 1').nullable().default(null),
  comment: z.string().max(10_000, 'must be at most 10000 characters').nullable().default(null),
}).strict()
export type LabelInput = z.infer<typeof labelSchema>

/** Where a queue's consensus labels are written: a dataset's id or name (a new version of it; made when it is not there). */
export const exportSchema = z.object({ dataset: text(200) }).strict()
