import { itemsFrom } from '~~/core/review/items'
import { presentProgress } from '~~/core/review/queues'
import { itemSourceSchema } from '~~/engine/review/schema'
import { useJudgeflow } from '~~/server/utils/context'
import { readBodyWith } from '~~/server/utils/http'
import { routeQueue } from '~~/server/utils/review'

/** Adds items to a queue from a dataset run's cases, runs, or an online rule's decisions; one already in the queue is left out. */
export default defineEventHandler(async (event) => {
  const queue = await routeQueue(event)
  const source = await readBodyWith(event, itemSourceSchema)
  const { store } = useJudgeflow()
  const added = await store.review.addItems(queue.id, await itemsFrom(store, source))
  return { added: added?.added ?? 0, progress: presentProgress(await store.review.progress(queue.id)) }
})
