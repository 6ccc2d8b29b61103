import { useJudgeflow } from '~~/server/utils/context'
import { routeQueue } from '~~/server/utils/review'

/** Deletes the queue with its items, labels and leases. */
export default defineEventHandler(async (event) => {
  const queue = await routeQueue(event)
  await useJudgeflow().store.review.deleteQueue(queue.id)
  setResponseStatus(event, 204)
  return null
})
