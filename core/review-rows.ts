/**
 * Human review's rows and repository (DESIGN.md, "Human review: annotation queues"): the queues,
 * the items people review (a snapshot of what was judged), one label per reviewer and item, and
 * the leases that hand an item to a reviewer. Both stores return these shapes; `db/row-types.ts`
 * checks the tables against them. Times are epoch milliseconds.
 */
import type { MaybePromise } from './rows'

/** What a reviewer gives: one of the labels (pass/fail unless the queue names others), a 0–1 score, a comment. */
export interface ReviewRubric {
  labels: string[]
  /** Whether a reviewer may give a 0–1 score beside the label. */
  score: boolean
  /** Whether a reviewer may write a comment. */
  comment: boolean
}

export interface ReviewQueueRow {
  id: string
  name: string
  rubric: ReviewRubric
  /** What reviewers are asked to judge, in their words. */
  instructions: string | null
  /** How many people label each item. */
  reviewersPerItem: number
  /** How long an item handed to a reviewer stays theirs before it goes to someone else. */
  leaseMinutes: number
  /** Whether reviewers see the judge's verdict on an item (hidden: they are not led by it). */
  showJudge: boolean
  createdAt: number
  updatedAt: number
}

export type NewReviewQueue = Omit<ReviewQueueRow, 'id' | 'createdAt' | 'updatedAt'>

/** Where an item comes from: a dataset run's case, a run, or an online decision. */
export type ReviewSource
  = | { kind: 'dataset_run_case', dataset_run_id: string, case_id: string, repeat: number }
    | { kind: 'run', run_id: string }
    | { kind: 'online', rule_id: string, trace_id: string, span_id: string }

/** What the judge said of the item when it was added. */
export interface ReviewJudge {
  verdict: string | null
  score: number | null
  confidence: number | null
  reason: string | null
  /** The judge's fingerprint (engine/evaluator/fingerprint.ts), when the run kept it. */
  fingerprint: string | null
  /** Its parts, when the run kept them: a stale calibration from the queue says which changed. */
  fingerprint_parts?: Record<string, string> | null
  /**
   * The judge re-run on the item since (POST /api/queues/:id/rejudge), oldest first, one per judge
   * fingerprint: the verdict above stays the one the item was added with.
   */
  rejudged?: ReviewRejudgement[]
}

/** A verdict of the judge re-run on an item, tied to that judge's fingerprint. */
export interface ReviewRejudgement {
  verdict: string | null
  score: number | null
  reason: string | null
  fingerprint: string
  fingerprint_parts: Record<string, string> | null
  /** When it was judged (epoch ms). */
  at: number
}

export interface ReviewItemRow {
  id: string
  queueId: string
  /** 1-based, in the order items were added: the order reviewers are handed them. */
  position: number
  source: ReviewSource
  /** The source said as one key: an item is added to a queue once. */
  sourceKey: string
  input: unknown
  output: unknown
  context: unknown
  judge: ReviewJudge | null
  createdAt: number
}

export type NewReviewItem = Pick<ReviewItemRow, 'source' | 'input' | 'output' | 'context' | 'judge'>

export interface ReviewLabelRow {
  itemId: string
  queueId: string
  reviewer: string
  label: string
  score: number | null
  comment: string | null
  createdAt: number
  updatedAt: number
}

export type NewReviewLabel = Pick<ReviewLabelRow, 'itemId' | 'reviewer' | 'label' | 'score' | 'comment'>

/** An item handed to a reviewer until `leasedUntil`, or passed over by them (`skipped`: not handed to them again). */
export interface ReviewLeaseRow {
  itemId: string
  queueId: string
  reviewer: string
  leasedUntil: number
  skipped: boolean
}

export interface ReviewProgress {
  items: number
  /** Items with as many labels as the queue asks for. */
  complete: number
  /** Labels given, by reviewer. */
  byReviewer: Record<string, number>
}

export interface ReviewRepository {
  createQueue(queue: NewReviewQueue): MaybePromise<ReviewQueueRow>
  listQueues(): MaybePromise<ReviewQueueRow[]>
  getQueue(id: string): MaybePromise<ReviewQueueRow | null>
  /** Deletes the queue with its items, labels and leases. */
  deleteQueue(id: string): MaybePromise<boolean>
  /** Adds items after the queue's last; an item whose source the queue has already is left out. Null when there is no such queue. */
  addItems(queueId: string, items: readonly NewReviewItem[]): MaybePromise<{ added: number } | null>
  getItem(itemId: string): MaybePromise<ReviewItemRow | null>
  /** The queue's items in their order. */
  items(queueId: string): MaybePromise<ReviewItemRow[]>
  /**
   * The reviewer's next item, leased to them until `now` + the queue's lease: the one they hold already,
   * else the first they have neither labelled nor skipped whose labels and others' live leases leave
   * room for one more reviewer. Null when there is none (or no such queue).
   */
  next(queueId: string, reviewer: string, now: number): MaybePromise<ReviewItemRow | null>
  /** The reviewer passes the item over: it is not handed to them again, and another may take it. False when there is no such item. */
  skip(itemId: string, reviewer: string): MaybePromise<boolean>
  /** Keeps a re-judgement of the item beside its judge's verdict, replacing one of the same fingerprint. False when there is no such item. */
  addRejudgement(itemId: string, rejudgement: ReviewRejudgement): MaybePromise<boolean>
  /** The reviewer gives the item back: their lease on it ends, so another may take it. False when they held none. */
  release(itemId: string, reviewer: string): MaybePromise<boolean>
  /** Stores the reviewer's label on the item, replacing the one they gave before, and ends their lease. Null when there is no such item. */
  label(label: NewReviewLabel): MaybePromise<ReviewLabelRow | null>
  /** Every label on the queue's items. */
  labels(queueId: string): MaybePromise<ReviewLabelRow[]>
  progress(queueId: string): MaybePromise<ReviewProgress>
}

/** An item's source as one key: the same case, run or span added again is the same item. */
export function reviewSourceKey(source: ReviewSource): string {
  switch (source.kind) {
    case 'dataset_run_case': return JSON.stringify([source.kind, source.dataset_run_id, source.case_id, source.repeat])
    case 'run': return JSON.stringify([source.kind, source.run_id])
    case 'online': return JSON.stringify([source.kind, source.rule_id, source.trace_id, source.span_id])
  }
}
