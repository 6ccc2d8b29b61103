/**
 * Bodies of a review queue's actions beyond labelling (DESIGN.md, "Human review: annotation
 * queues"): re-running its judge, giving an item back. Browser-safe, as engine/review/schema.ts.
 */
import { z } from 'zod'
import { reviewerSchema } from './schema'

const id = z.string().trim().min(1, 'must not be empty').max(200, 'must be at most 200 characters')

/**
 * The judge to re-run over a queue's items: an evaluator config (an evaluator step's, `config_file`
 * allowed), or a saved workflow's evaluator step in its current version (`step_id`, else its last
 * evaluator); neither: the judge the items came from, as it is now.
 */
export const rejudgeSchema = z.object({
  config: z.record(z.string(), z.unknown()).optional(),
  workflow_id: id.optional(),
  step_id: id.optional(),
}).strict().superRefine((body, ctx) => {
  if (body.config !== undefined && (body.workflow_id !== undefined || body.step_id !== undefined)) {
    ctx.addIssue({ code: 'custom', message: 'give either config or workflow_id (with step_id), not both', path: ['config'] })
  }
  else if (body.step_id !== undefined && body.workflow_id === undefined) {
    ctx.addIssue({ code: 'custom', message: 'is required with step_id', path: ['workflow_id'] })
  }
})
export type RejudgeInput = z.infer<typeof rejudgeSchema>

/** The reviewer giving an item back: the signed-in person when the session names one, as for a label or a skip. */
export const releaseSchema = z.object({ reviewer: reviewerSchema.optional() }).strict()
