import { releaseSchema } from '~~/engine/review/queue-actions'
import { useJudgeflow } from '~~/server/utils/context'
import { readBodyWith } from '~~/server/utils/http'
import { reviewerOf } from '~~/server/utils/people'
import { queueItem, routeQueue } from '~~/server/utils/review'

/** The reviewer gives the item back: their lease on it ends, so another reviewer may take it; `released: false` when they held none. */
export default defineEventHandler(async (event) => {
  const queue = await routeQueue(event)
  const reviewer = reviewerOf(event, (await readBodyWith(event, releaseSchema)).reviewer)
  const item = await queueItem(queue, getRouterParam(event, 'item') ?? '')
  return { item_id: item.id, released: await useJudgeflow().store.review.release(item.id, reviewer) }
})
