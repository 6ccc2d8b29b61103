import type { Db } from './client'

/**
 * The write lock is taken at BEGIN, waiting for another process's writer as long as the busy
 * timeout allows: a write that first checks a row (a fenced run write) then sees the latest
 * commit, never a snapshot another process's commit has made stale.
 */
const IMMEDIATE = { behavior: 'immediate' } as const

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
 * and committing too often. The first commit of a turn of the loop happens as soon as the work that
 * queued it yields (a microtask), so a run's steps do not each wait for a busy loop to come round
 * (with 16 runs under way, a run's seven commits cost it ~15 ms a case that way). Writes queued
 * after it in the same turn (other requests, other runs' callbacks) wait for the turn's end and
 * share one transaction: under a burst of run starts that is one commit a turn, not one a request
 * (42,876 commits for 42,966 writes in the API benchmark without it).
 */
export class GroupCommit {
  private pending: Pending[] = []
  private scheduled = false
  /** A commit has already been made in this turn of the loop: the next writes wait for its end. */
  private committedThisTurn = false

  constructor(private readonly db: Db, private readonly synchronous: 'normal' | 'full' = 'normal') {}

  write<T>(work: () => T): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.pending.push({ work, resolve, reject })
      if (this.scheduled) return
      this.scheduled = true
      if (this.synchronous === 'full' || this.committedThisTurn) setImmediate(() => this.flush())
      else queueMicrotask(() => this.flushNow())
    })
  }

  private flushNow() {
    this.committedThisTurn = true
    setImmediate(() => { this.committedThisTurn = false })
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
