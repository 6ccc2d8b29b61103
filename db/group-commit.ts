import type { Db } from './client'

/**
 * The write lock is taken at BEGIN, waiting for another process's writer as long as the busy
 * timeout allows: a write that first checks a row (a fenced run write) then sees the latest
 * commit, never a snapshot another process's commit has made stale.
 */
const IMMEDIATE = { behavior: 'immediate' } as const

/**
 * Commits made at once in a turn of the loop before the next writes wait for its end: as many as a
 * gate's usual concurrency (16 case runs a turn each commit at once; with 4, the endpoint benchmark's
 * 1,000 cases took ~1.5% longer), few against a burst of run starts (32 connections, each start a write).
 */
export const AT_ONCE_PER_TURN = 16

interface Pending {
  work: () => unknown
  resolve: (value: any) => void
  reject: (error: unknown) => void
}

/**
 * Group commit: writes queued together share one transaction. Each caller's promise settles only
 * after that transaction has committed, so "awaited" still means "durable".
 *
 * When a commit is synced to disk (`full`), each one costs a disk flush: the writes of one turn of
 * the event loop wait for the turn's end and share it.
 *
 * Otherwise a commit costs some tens of microseconds, and the two ways of wasting time are waiting
 * and committing too often. The first few commits of a turn of the loop (`AT_ONCE_PER_TURN`) happen
 * as soon as the work that queued them yields (a microtask), so a run's steps do not each wait for a
 * busy loop to come round (with 16 runs under way, a run's seven commits cost it ~15 ms a case that
 * way). Writes queued after those in the same turn — a burst: many requests, many runs' callbacks —
 * wait for the turn's end and share one transaction: one commit a turn, not one a request (the API
 * benchmark made 42,876 commits for 42,966 writes without it, and accepted half the runs).
 */
export class GroupCommit {
  private pending: Pending[] = []
  private scheduled = false
  /** Commits made at once in this turn of the loop (reset at its end). */
  private atOnceThisTurn = 0

  constructor(private readonly db: Db, private readonly synchronous: 'normal' | 'full' = 'normal') {}

  write<T>(work: () => T): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.pending.push({ work, resolve, reject })
      if (this.scheduled) return
      this.scheduled = true
      if (this.synchronous === 'full' || this.atOnceThisTurn >= AT_ONCE_PER_TURN) setImmediate(() => this.flush())
      else queueMicrotask(() => this.flushNow())
    })
  }

  private flushNow() {
    if (this.atOnceThisTurn++ === 0) setImmediate(() => { this.atOnceThisTurn = 0 })
    this.flush()
  }

  private flush() {
    const batch = this.pending
    this.pending = []
    this.scheduled = false
    let results: unknown[]
    try {
      results = this.db.transaction(() => batch.map(item => item.work()), IMMEDIATE)
    }
    catch {
      // One bad write must not sink the others: retry each in its own transaction.
      for (const item of batch) {
        try {
          item.resolve(this.db.transaction(() => item.work(), IMMEDIATE))
        }
        catch (error) {
          item.reject(error)
        }
      }
      return
    }
    batch.forEach((item, i) => item.resolve(results[i]))
  }
}
