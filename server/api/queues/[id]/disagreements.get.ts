import { disagreementsOf } from '~~/core/review/disagreements'
import { useJudgeflow } from '~~/server/utils/context'
import { routeQueue } from '~~/server/utils/review'

/**
 * The queue's items where people and the judge part: reviewers who gave different labels, a consensus
 * that is not the judge's verdict (or not its verdict re-run), each with every reviewer's label.
 */
export default defineEventHandler(async (event) => {
  const queue = await routeQueue(event)
  const { store } = useJudgeflow()
  const items = disagreementsOf(await store.review.items(queue.id), await store.review.labels(queue.id))
  return { queue_id: queue.id, items }
})
