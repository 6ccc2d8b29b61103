import { queueAgreement } from '~~/core/review/queues'
import { useJudgeflow } from '~~/server/utils/context'
import { routeQueue } from '~~/server/utils/review'

/** How far the queue's reviewers agree (κ, α with intervals), their consensus, and the judge against it with the confusion matrix. */
export default defineEventHandler(async (event) => {
  const queue = await routeQueue(event)
  const { store } = useJudgeflow()
  return { queue_id: queue.id, ...queueAgreement(await store.review.items(queue.id), await store.review.labels(queue.id)) }
})
