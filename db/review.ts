import { randomUUID } from 'node:crypto'
import { and, asc, count, eq, gt, inArray, ne, notExists, sql } from 'drizzle-orm'
import {
  reviewSourceKey, type NewReviewItem, type ReviewItemRow, type ReviewLabelRow, type ReviewProgress, type ReviewQueueRow, type ReviewRepository,
} from '../core/review-rows'
import { allRows, firstRow, inTransaction, rowsOf, runOf, type Perform, type Program } from './statement-program'

/**
 * Human review's tables on one dialect, and how a transaction locks a queue's row: FOR UPDATE on
 * PostgreSQL; on SQLite a transaction takes the write lock at BEGIN, so the query is left as it is.
 */
export interface ReviewTables {
  reviewQueues: any
  reviewItems: any
  reviewLabels: any
  reviewLeases: any
  forUpdate: (query: any) => any
}

/** Rows per insert: under SQLite's 32,766 parameters a statement at 10 columns a row. */
const ROWS_PER_INSERT = 500
/** Re-judgements an item keeps, the newest: one per judge fingerprint. */
const MAX_REJUDGEMENTS = 10

/** Review queues, their items, labels and leases over both dialects (see statement-program.ts). */
export function reviewRepository(t: ReviewTables, perform: Perform): ReviewRepository {
  const { reviewQueues: queues, reviewItems: items, reviewLabels: labels, reviewLeases: leases } = t
  return {
    createQueue: queue => perform(function* (db) {
      const now = Date.now()
      const row: ReviewQueueRow = { id: randomUUID(), ...queue, createdAt: now, updatedAt: now }
      yield runOf(db.insert(queues).values(row))
      return row
    }),
    listQueues: () => perform(db => allRows<ReviewQueueRow>(db.select().from(queues).orderBy(asc(queues.createdAt), asc(queues.id)))),
    getQueue: id => perform(db => firstRow<ReviewQueueRow>(db.select().from(queues).where(eq(queues.id, id)))),
    deleteQueue: id => perform(function* (db) {
      const deleted: unknown[] = yield rowsOf(db.delete(queues).where(eq(queues.id, id)).returning({ id: queues.id }))
      return deleted.length > 0
    }),
    addItems: (queueId, added) => perform(function* () {
      return (yield inTransaction(tx => addItems(t, tx, queueId, added))) as { added: number } | null
    }),
    getItem: id => perform(db => firstRow<ReviewItemRow>(db.select().from(items).where(eq(items.id, id)))),
    items: queueId => perform(db => allRows<ReviewItemRow>(db.select().from(items).where(eq(items.queueId, queueId)).orderBy(asc(items.position)))),
    next: (queueId, reviewer, now) => perform(function* () {
      return (yield inTransaction(tx => nextItem(t, tx, queueId, reviewer, now))) as ReviewItemRow | null
    }),
    skip: (itemId, reviewer) => perform(function* (db) {
      const item: ReviewItemRow | null = yield* firstRow(db.select().from(items).where(eq(items.id, itemId)))
      if (!item) return false
      yield runOf(db.insert(leases).values({ itemId, queueId: item.queueId, reviewer, leasedUntil: 0, skipped: true })
        .onConflictDoUpdate({ target: [leases.itemId, leases.reviewer], set: { leasedUntil: 0, skipped: true } }))
      return true
    }),
    addRejudgement: (itemId, rejudgement) => perform(function* () {
      return (yield inTransaction(function* (tx): Program<boolean> {
        const item: ReviewItemRow | null = yield* firstRow(t.forUpdate(tx.select().from(items).where(eq(items.id, itemId))))
        if (!item) return false
        const judge = item.judge ?? { verdict: null, score: null, confidence: null, reason: null, fingerprint: null }
        const rejudged = [...(judge.rejudged ?? []).filter(r => r.fingerprint !== rejudgement.fingerprint), rejudgement].slice(-MAX_REJUDGEMENTS)
        yield runOf(tx.update(items).set({ judge: { ...judge, rejudged } }).where(eq(items.id, itemId)))
        return true
      })) as boolean
    }),
    release: (itemId, reviewer) => perform(function* (db) {
      const released: unknown[] = yield rowsOf(db.delete(leases)
        .where(and(eq(leases.itemId, itemId), eq(leases.reviewer, reviewer), eq(leases.skipped, false))).returning({ itemId: leases.itemId }))
      return released.length > 0
    }),
    label: given => perform(function* () {
      return (yield inTransaction(function* (tx): Program<ReviewLabelRow | null> {
        const item: ReviewItemRow | null = yield* firstRow(tx.select().from(items).where(eq(items.id, given.itemId)))
        if (!item) return null
        const now = Date.now()
        const row: ReviewLabelRow = { ...given, queueId: item.queueId, createdAt: now, updatedAt: now }
        yield runOf(tx.insert(labels).values(row).onConflictDoUpdate({
          target: [labels.itemId, labels.reviewer], set: { label: row.label, score: row.score, comment: row.comment, updatedAt: now },
        }))
        yield runOf(tx.delete(leases).where(and(eq(leases.itemId, given.itemId), eq(leases.reviewer, given.reviewer))))
        return yield* firstRow<ReviewLabelRow>(tx.select().from(labels).where(and(eq(labels.itemId, given.itemId), eq(labels.reviewer, given.reviewer))))
      })) as ReviewLabelRow | null
    }),
    labels: queueId => perform(db => allRows<ReviewLabelRow>(db.select().from(labels).where(eq(labels.queueId, queueId))
      .orderBy(asc(labels.itemId), asc(labels.reviewer)))),
    progress: queueId => perform(db => progressOf(t, db, queueId)),
  }
}

/** The queue's new items after its last (its row locked, so two adds number theirs apart); sources it has already are left out. */
function* addItems(t: ReviewTables, tx: any, queueId: string, added: readonly NewReviewItem[]): Program<{ added: number } | null> {
  const { reviewQueues: queues, reviewItems: items } = t
  const [queue]: unknown[] = yield rowsOf(t.forUpdate(tx.select({ id: queues.id }).from(queues).where(eq(queues.id, queueId))))
  if (!queue) return null
  const keyed = added.map(item => ({ item, key: reviewSourceKey(item.source) }))
  const seen = new Set<string>()
  for (let i = 0; i < keyed.length; i += ROWS_PER_INSERT) {
    const keys = keyed.slice(i, i + ROWS_PER_INSERT).map(k => k.key)
    const stored: Array<{ key: string }> = yield rowsOf(tx.select({ key: items.sourceKey }).from(items)
      .where(and(eq(items.queueId, queueId), inArray(items.sourceKey, keys))))
    for (const { key } of stored) seen.add(key)
  }
  const [last]: Array<{ position: number | null }> = yield rowsOf(tx.select({ position: sql<number | null>`max(${items.position})` }).from(items).where(eq(items.queueId, queueId)))
  let position = Number(last?.position ?? 0)
  const now = Date.now()
  const rows: ReviewItemRow[] = []
  for (const { item, key } of keyed) {
    if (seen.has(key)) continue
    seen.add(key)
    rows.push({ id: randomUUID(), queueId, position: ++position, sourceKey: key, ...item, createdAt: now })
  }
  for (let i = 0; i < rows.length; i += ROWS_PER_INSERT) yield runOf(tx.insert(items).values(rows.slice(i, i + ROWS_PER_INSERT)))
  return { added: rows.length }
}

/** See ReviewRepository.next: the queue's row is locked, so two reviewers taking items at once count each other's leases. */
function* nextItem(t: ReviewTables, tx: any, queueId: string, reviewer: string, now: number): Program<ReviewItemRow | null> {
  const { reviewQueues: queues, reviewItems: items, reviewLabels: labels, reviewLeases: leases } = t
  const [queue]: ReviewQueueRow[] = yield rowsOf(t.forUpdate(tx.select().from(queues).where(eq(queues.id, queueId))))
  if (!queue) return null
  const mine = (skipped: boolean) => and(eq(leases.itemId, items.id), eq(leases.reviewer, reviewer), eq(leases.skipped, skipped))
  const labelledByMe = tx.select({ one: sql`1` }).from(labels).where(and(eq(labels.itemId, items.id), eq(labels.reviewer, reviewer)))
  const [held]: Array<{ item: ReviewItemRow }> = yield rowsOf(tx.select({ item: items }).from(items)
    .innerJoin(leases, mine(false))
    .where(and(eq(items.queueId, queueId), gt(leases.leasedUntil, now), notExists(labelledByMe)))
    .orderBy(asc(items.position)).limit(1))
  let item = held?.item
  if (!item) {
    const labelsOn = tx.select({ n: count() }).from(labels).where(eq(labels.itemId, items.id))
    const othersHolding = tx.select({ n: count() }).from(leases)
      .where(and(eq(leases.itemId, items.id), ne(leases.reviewer, reviewer), eq(leases.skipped, false), gt(leases.leasedUntil, now)))
    const [free]: ReviewItemRow[] = yield rowsOf(tx.select().from(items)
      .where(and(
        eq(items.queueId, queueId), notExists(labelledByMe),
        notExists(tx.select({ one: sql`1` }).from(leases).where(mine(true))),
        sql`(${labelsOn}) + (${othersHolding}) < ${queue.reviewersPerItem}`,
      ))
      .orderBy(asc(items.position)).limit(1))
    item = free
  }
  if (!item) return null
  const leasedUntil = now + queue.leaseMinutes * 60_000
  yield runOf(tx.insert(leases).values({ itemId: item.id, queueId, reviewer, leasedUntil, skipped: false })
    .onConflictDoUpdate({ target: [leases.itemId, leases.reviewer], set: { leasedUntil, skipped: false } }))
  return item
}

function* progressOf(t: ReviewTables, db: any, queueId: string): Program<ReviewProgress> {
  const { reviewQueues: queues, reviewItems: items, reviewLabels: labels } = t
  const queue: ReviewQueueRow | null = yield* firstRow(db.select().from(queues).where(eq(queues.id, queueId)))
  const perItem = db.select({ itemId: labels.itemId, n: count().as('n') }).from(labels)
    .where(eq(labels.queueId, queueId)).groupBy(labels.itemId).as('per_item')
  type Counted = Array<{ n: number | string }>
  const [total]: Counted = yield rowsOf(db.select({ n: count() }).from(items).where(eq(items.queueId, queueId)))
  const [complete]: Counted = yield rowsOf(db.select({ n: count() }).from(perItem).where(sql`${perItem.n} >= ${queue?.reviewersPerItem ?? 1}`))
  const byReviewer: Array<{ reviewer: string, n: number | string }> = yield rowsOf(db.select({ reviewer: labels.reviewer, n: count() }).from(labels)
    .where(eq(labels.queueId, queueId)).groupBy(labels.reviewer).orderBy(asc(labels.reviewer)))
  return {
    items: Number(total?.n ?? 0),
    complete: Number(complete?.n ?? 0),
    byReviewer: Object.fromEntries(byReviewer.map(r => [r.reviewer, Number(r.n)])),
  }
}
