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
 * the event loop wait for the turn's end and share it. Otherwise a commit costs some tens of
 * microseconds, less than a turn of a busy loop: the writes queued by the same piece of work (and
 * its microtasks) share a transaction that commits as soon as that work yields, so a run's steps
 * do not each wait for the loop to come round (with 16 runs under way, a run's seven commits
 * cost it ~15 ms a case that way).
 */
export class GroupCommit {
  private pending: Pending[] = []
  private scheduled = false
  private readonly schedule: (flush: () => void) => void

  constructor(private readonly db: Db, synchronous: 'normal' | 'full' = 'normal') {
    this.schedule = synchronous === 'full' ? flush => setImmediate(flush) : queueMicrotask
  }

  write<T>(work: () => T): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.pending.push({ work, resolve, reject })
      if (!this.scheduled) {
        this.scheduled = true
        this.schedule(() => this.flush())
      }
    })
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
