import { presentLabel } from '~~/core/review/queues'
import { labelSchema } from '~~/engine/review/schema'
import { useJudgeflow } from '~~/server/utils/context'
import { readBodyWith } from '~~/server/utils/http'
import { reviewerOf } from '~~/server/utils/people'
import { checkLabel, queueItem, routeQueue } from '~~/server/utils/review'

/** Stores a reviewer's label on an item (one of the rubric's labels, with its score and comment), replacing the one they gave before. */
export default defineEventHandler(async (event) => {
  const queue = await routeQueue(event)
  const label = await readBodyWith(event, labelSchema)
  const reviewer = reviewerOf(event, label.reviewer)
  checkLabel(queue, label)
  await queueItem(queue, label.item_id)
  const { item_id: itemId, score, comment } = label
  const row = await useJudgeflow().store.review.label({ itemId, reviewer, label: label.label, score, comment })
  setResponseStatus(event, 201)
  return presentLabel(row!)
})
