import { finalRunStatuses, JudgeflowError } from '../../engine'
import type { RunEventRow, RunRow } from '../rows'
import type { Store } from '../store'
import type { RunWriter } from './run-writer'

/** How often `whenEnded` looks at a run no event of this process tells about. */
const ENDED_CHECK_MS = 5_000

/** Where a follower's events go (a Server-Sent Events stream). */
export interface EventSink {
  readonly closed: boolean
  send(row: RunEventRow): void
  /** Resolves once the reader has taken what was sent (a replay never buffers a whole run). */
  drained(): Promise<void>
  end(): void
  /** Calls `fn` once the sink closes (its reader went away, or `end`). */
  onClose(fn: () => void): void
}

export interface FollowingDeps {
  store: Store
  writes: RunWriter
  /** Whether this process executes the run (its events are published as they are committed here). */
  executingHere: (runId: string) => boolean
}

/**
 * Following runs wherever they execute: this process's subscribers hear each committed event,
 * read from the store when another process committed it (told by the queue), in order and once.
 */
export class Following {
  /** Per run followed here but executed elsewhere: the id of the last event read (a chain, one read at a time). */
  private readonly remote = new Map<string, Promise<number>>()

  constructor(private readonly deps: FollowingDeps) {}

  /** Hears each of the run's events once it is committed. */
  subscribe(runId: string, listener: (event: RunEventRow) => void): () => void {
    return this.deps.writes.subscribe(runId, listener)
  }

  /**
   * Sends the run's events after `after` to `sink`: what is stored first, then each one as it is
   * committed, ending the sink after run.finished. Returns once the replay is done; the sink is
   * ended by then when the run has ended (`hasEnded` says whether it has nothing more to tell).
   */
  async stream(runId: string, after: number, sink: EventSink, hasEnded: (run: RunRow) => boolean): Promise<void> {
    const { store } = this.deps
    let lastSent = after
    let replaying = true
    const live: RunEventRow[] = []
    const send = (row: RunEventRow) => {
      if (row.id <= lastSent) return
      lastSent = row.id
      sink.send(row)
      if (row.type === 'run.finished') sink.end()
    }
    // Subscribed before the log is read so nothing committed in between is missed; duplicates are dropped by id.
    const unsubscribe = this.subscribe(runId, row => (replaying ? live.push(row) : send(row)))
    sink.onClose(unsubscribe)
    try {
      for (let page = await store.runs.eventsAfter(runId, after, 100); page.length; page = await store.runs.eventsAfter(runId, lastSent, 100)) {
        for (const row of page) {
          send(row)
          await sink.drained()
        }
        if (sink.closed) break
      }
      replaying = false
      for (const row of live) send(row)
      const current = await store.runs.get(runId)
      if (!current || !hasEnded(current)) return
      // Ended by another process: its last events are committed, but this process reads them only
      // when told, which may not have happened yet. They are sent before the end, run.finished last.
      for (const row of await store.runs.eventsAfter(runId, lastSent)) send(row)
      sink.end()
    }
    finally {
      // Closed before `onClose` was heard of: no close is coming to unsubscribe.
      if (sink.closed) unsubscribe()
    }
  }

  /**
   * An event another process committed: this process's subscribers of the run read it (and any
   * before it) from the store; those waiting only for its end hear of it without a read. A read
   * that fails is logged, and the next one starts from the last event read, so nothing is skipped.
   */
  heard(runId: string, eventId: number, type?: string): void {
    const { executingHere, writes, store } = this.deps
    if (executingHere(runId)) return
    if (!writes.following(runId)) {
      if (type === 'run.finished') writes.ended(runId)
      return
    }
    const previous = this.remote.get(runId) ?? Promise.resolve(eventId - 1)
    const next = previous.then(async (after) => {
      // Read already with an earlier notification's rows: events committed together are read once.
      if (after >= eventId) return after
      let last = after
      try {
        for (const row of await store.runs.eventsAfter(runId, after)) {
          writes.publish(row)
          last = row.id
        }
      }
      catch (error) {
        console.error(`judgeflow: could not read the events of run ${runId}: ${(error as Error).message}`)
      }
      return last
    })
    this.remote.set(runId, next)
    void next.then(() => { if (this.remote.get(runId) === next && !writes.following(runId)) this.remote.delete(runId) })
  }

  /** Publishes to this process's followers of a run executing elsewhere the events stored and not yet read. */
  catchUp(runId: string): Promise<unknown> {
    if (this.deps.executingHere(runId) || !this.deps.writes.following(runId)) return Promise.resolve()
    this.heard(runId, Number.MAX_SAFE_INTEGER)
    return this.remote.get(runId) ?? Promise.resolve()
  }

  /**
   * Resolves with the run's row once it has ended: told by `run.finished` (committed here, or
   * NOTIFYed by the process executing it), and checked now and then in case that word never came
   * (the listening connection dropped meanwhile).
   */
  whenEnded(runId: string, checkEveryMs = ENDED_CHECK_MS): Promise<RunRow> {
    const { store, writes } = this.deps
    return new Promise((resolve, reject) => {
      let done = false
      const settle = (end: () => void) => {
        if (done) return
        done = true
        stop()
        clearInterval(timer)
        end()
      }
      // The status alone first (a run just started is read without its definition), the row once it has ended.
      const check = async () => {
        try {
          const status = (await store.runs.statuses([runId])).get(runId)
          if (status !== undefined && !finalRunStatuses.has(status)) return
          const run = await store.runs.get(runId)
          if (!run) throw new JudgeflowError('NOT_FOUND', `run "${runId}" does not exist`)
          if (finalRunStatuses.has(run.status)) settle(() => resolve(run))
        }
        catch (error) {
          settle(() => reject(error))
        }
      }
      const stop = writes.watchEnd(runId, () => void check())
      const timer = setInterval(() => void check(), checkEveryMs)
      void check()
    })
  }
}
