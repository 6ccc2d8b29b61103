import { itemsFrom } from '~~/core/review/items'
import { presentQueue, queueFields } from '~~/core/review/queues'
import { reviewQueueSchema } from '~~/engine/review/schema'
import { useJudgeflow } from '~~/server/utils/context'
import { readBodyWith } from '~~/server/utils/http'

/** Creates a review queue (DESIGN.md's fields), with the items `items` names (a dataset run's cases, runs, online decisions). */
export default defineEventHandler(async (event) => {
  const input = await readBodyWith(event, reviewQueueSchema)
  const { store } = useJudgeflow()
  // The source is read before the queue is made: a source that is not there makes no queue.
  const items = input.items ? await itemsFrom(store, input.items, 'items.') : []
  const queue = await store.review.createQueue(queueFields(input))
  if (items.length) await store.review.addItems(queue.id, items)
  setResponseStatus(event, 201)
  return presentQueue(queue, await store.review.progress(queue.id))
})
