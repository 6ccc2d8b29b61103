import { presentQueue } from '~~/core/review/queues'
import { useJudgeflow } from '~~/server/utils/context'
import { routeQueue } from '~~/server/utils/review'

/** A review queue with its progress: items, items with all their labels, labels by reviewer. */
export default defineEventHandler(async (event) => {
  const queue = await routeQueue(event)
  return presentQueue(queue, await useJudgeflow().store.review.progress(queue.id))
})
