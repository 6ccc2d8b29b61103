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
 * Group commit: writes queued in the same turn of the event loop share one transaction.
 * Each caller's promise settles only after that transaction has committed, so "awaited"
 * still means "durable", while concurrent runs stop paying one commit per event.
 */
export class GroupCommit {
  private pending: Pending[] = []
  private scheduled = false

  constructor(private readonly db: Db) {}

  write<T>(work: () => T): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.pending.push({ work, resolve, reject })
      if (!this.scheduled) {
        this.scheduled = true
        setImmediate(() => this.flush())
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
