import { presentQueue } from '~~/core/review/queues'
import { useJudgeflow } from '~~/server/utils/context'

/** The review queues, the oldest first, each with its progress. */
export default defineEventHandler(async () => {
  const { store } = useJudgeflow()
  const queues = await store.review.listQueues()
  return Promise.all(queues.map(async queue => presentQueue(queue, await store.review.progress(queue.id))))
})
