import { performance } from 'node:perf_hooks'
import type { Db } from './client'

/**
 * The write lock is taken at BEGIN, waiting for another process's writer as long as the busy
 * timeout allows: a write that first checks a row (a fenced run write) then sees the latest
 * commit, never a snapshot another process's commit has made stale.
 */
const IMMEDIATE = { behavior: 'immediate' } as const

/** Commits made at once in a turn of the loop, while the loop has time to spare, before the next writes wait for its end. */
export const AT_ONCE_PER_TURN = 16
/** The share of its time the loop spends running code, over the last `LOOK_MS`, above which it counts as saturated. */
const SATURATED = 0.75
const LOOK_MS = 100

/** Whether the event loop has been saturated lately (its utilisation over the last tenth of a second). */
export function loopSaturation(): () => boolean {
  let last = performance.eventLoopUtilization()
  let lastAt = performance.now()
  let saturated = false
  return () => {
    const now = performance.now()
    if (now - lastAt >= LOOK_MS) {
      const current = performance.eventLoopUtilization()
      saturated = performance.eventLoopUtilization(current, last).utilization > SATURATED
      last = current
      lastAt = now
    }
    return saturated
  }
}

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
 * and committing too often. While the loop has time to spare, a commit happens as soon as the work
 * that queued it yields (a microtask), up to `AT_ONCE_PER_TURN` a turn, so a run's steps do not each
 * wait for the loop to come round (a gate's 16 case runs, each with seven awaited commits, took ~2%
 * longer when only the first commit of a turn went at once). Once the loop is saturated, the first
 * commit of a turn goes at once and the writes queued after it in that turn — a burst: many
 * requests, many runs' callbacks — share one transaction at the turn's end: one commit a turn, not
 * one a request (the API benchmark made 42,876 commits for 42,966 writes committing each at once, and
 * accepted half the runs; 16 at once a turn still cost the load test a third of its starts).
 */
export class GroupCommit {
  private pending: Pending[] = []
  private scheduled = false
  /** Commits made at once in this turn of the loop (reset at its end). */
  private atOnceThisTurn = 0

  constructor(
    private readonly db: Db,
    private readonly synchronous: 'normal' | 'full' = 'normal',
    private readonly saturated: () => boolean = loopSaturation(),
  ) {}

  write<T>(work: () => T): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.pending.push({ work, resolve, reject })
      if (this.scheduled) return
      this.scheduled = true
      const atOnce = this.saturated() ? 1 : AT_ONCE_PER_TURN
      if (this.synchronous === 'full' || this.atOnceThisTurn >= atOnce) setImmediate(() => this.flush())
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
