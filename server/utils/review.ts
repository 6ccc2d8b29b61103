import type { H3Event } from 'h3'
import { JudgeflowError } from '~~/engine/errors'
import type { LabelInput } from '~~/engine/review/schema'
import type { ReviewQueueRow } from '~~/core/review-rows'
import { useJudgeflow } from './context'
import { notFound, routeId } from './http'

/** The queue the route names, or a 404. */
export async function routeQueue(event: H3Event): Promise<ReviewQueueRow> {
  const id = routeId(event)
  const queue = await useJudgeflow().store.review.getQueue(id)
  if (!queue) notFound('review queue', id)
  return queue
}

/** The item, which must be the queue's: a 404 otherwise. */
export async function queueItem(queue: ReviewQueueRow, itemId: string) {
  const item = await useJudgeflow().store.review.getItem(itemId)
  if (!item || item.queueId !== queue.id) notFound('item in this review queue', itemId)
  return item
}

/** Refuses a label the queue's rubric does not offer, and a score or comment it does not take, naming the field. */
export function checkLabel(queue: ReviewQueueRow, label: LabelInput): void {
  const { rubric } = queue
  if (!rubric.labels.includes(label.label)) throw new JudgeflowError('INVALID_INPUT', `label: must be one of ${rubric.labels.join(', ')}`)
  if (label.score !== null && !rubric.score) throw new JudgeflowError('INVALID_INPUT', 'score: this queue\'s rubric takes no score')
  if (label.comment !== null && !rubric.comment) throw new JudgeflowError('INVALID_INPUT', 'comment: this queue\'s rubric takes no comment')
}
