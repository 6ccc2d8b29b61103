import { queueJudgeOf, rejudgeQueue } from '~~/core/review/rejudge'
import { rejudgeSchema } from '~~/engine/review/queue-actions'
import { useJudgeflow } from '~~/server/utils/context'
import { readBodyWith } from '~~/server/utils/http'
import { routeQueue } from '~~/server/utils/review'

/**
 * Re-runs the judge over the queue's items — the evaluator config given, a saved workflow's evaluator
 * step, else the judge the items came from as it is now — keeping each verdict beside the one the item
 * was added with, tied to the judge's fingerprint; answers the judge's κ against the consensus before and after.
 */
export default defineEventHandler(async (event) => {
  const queue = await routeQueue(event)
  const body = await readBodyWith(event, rejudgeSchema)
  const app = useJudgeflow()
  const items = await app.store.review.items(queue.id)
  const given = body.config ? { config: body.config } : body.workflow_id ? { workflow_id: body.workflow_id, step_id: body.step_id } : undefined
  const judge = await queueJudgeOf(app.store, items, given, app.config.evaluation.configDir)
  return rejudgeQueue(app.store, queue.id, judge, { ...app.evaluation, providers: app.providers })
})
