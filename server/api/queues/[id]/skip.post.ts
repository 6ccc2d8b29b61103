import { skipSchema } from '~~/engine/review/schema'
import { useJudgeflow } from '~~/server/utils/context'
import { readBodyWith } from '~~/server/utils/http'
import { reviewerOf } from '~~/server/utils/people'
import { queueItem, routeQueue } from '~~/server/utils/review'

/** The reviewer passes an item over: it is not handed to them again, and another reviewer may take it. */
export default defineEventHandler(async (event) => {
  const queue = await routeQueue(event)
  const { item_id: itemId, reviewer: named } = await readBodyWith(event, skipSchema)
  const reviewer = reviewerOf(event, named)
  await queueItem(queue, itemId)
  await useJudgeflow().store.review.skip(itemId, reviewer)
  setResponseStatus(event, 204)
  return null
})
