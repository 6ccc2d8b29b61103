import { exportQueueLabels } from '~~/core/review/export'
import { exportSchema } from '~~/engine/review/schema'
import { useJudgeflow } from '~~/server/utils/context'
import { readBodyWith } from '~~/server/utils/http'
import { routeQueue } from '~~/server/utils/review'

/** Writes the queue's consensus labels (expected verdict, expected score) as a new version of the dataset named, made when it is not there. */
export default defineEventHandler(async (event) => {
  const queue = await routeQueue(event)
  const { dataset } = await readBodyWith(event, exportSchema)
  const written = await exportQueueLabels(useJudgeflow().store, queue, dataset)
  setResponseStatus(event, 201)
  return { queue_id: queue.id, ...written }
})
