import { presentItem } from '~~/core/review/queues'
import { nextItemSchema } from '~~/engine/review/schema'
import { useJudgeflow } from '~~/server/utils/context'
import { readBodyWith } from '~~/server/utils/http'
import { reviewerOf } from '~~/server/utils/people'
import { routeQueue } from '~~/server/utils/review'

/** The reviewer's next item, leased to them for the queue's minutes, blind to other reviewers' labels; `item: null` when none is left for them. */
export default defineEventHandler(async (event) => {
  const queue = await routeQueue(event)
  const reviewer = reviewerOf(event, (await readBodyWith(event, nextItemSchema)).reviewer)
  const now = Date.now()
  const item = await useJudgeflow().store.review.next(queue.id, reviewer, now)
  return { item: item && presentItem(item, queue), leased_until: item ? new Date(now + queue.leaseMinutes * 60_000).toISOString() : null }
})
