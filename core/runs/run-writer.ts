import type { RunEvent, RunResult } from '../../engine'
import type { RunEventRow } from '../rows'
import type { RunFinished, RunRepository } from '../store'

type Listener = (event: RunEventRow) => void

/**
 * Writes runs' events and ends through the store, and tells a run's subscribers of each event
 * once it is committed. Every write is fenced by this process's name: the store writes only while
 * the run is held here. A run marked lost (another process has taken it over: seen by the lease's
 * renewal, or by a write the store refused) gets no more writes from this process.
 */
export class RunWriter {
  private readonly listeners = new Map<string, Set<Listener>>()
  private readonly endWatchers = new Map<string, Set<() => void>>()
  readonly lost = new Set<string>()

  /**
   * `owner`: this process's lease name, which the store checks each write against.
   * `beforeWrite`: makes sure this process still holds its runs (a late lease renewed, runs taken over marked lost).
   * `refused`: a write the store refused because another process holds the run now.
   */
  constructor(
    private readonly runs: RunRepository,
    private readonly owner: string,
    private readonly beforeWrite?: () => Promise<void> | undefined,
    private readonly refused?: (runId: string) => void,
  ) {}

  /** Writes the event; false when it was not written (the run is held elsewhere now). */
  async event(runId: string, event: RunEvent): Promise<boolean> {
    await this.beforeWrite?.()
    if (this.lost.has(runId)) return false
    return this.written(runId, await this.runs.record(runId, event, this.owner))
  }

  /** Writes the run's end and its last event together, then tells the subscribers; false when not written. */
  async finish(runId: string, event: RunFinished): Promise<boolean> {
    await this.beforeWrite?.()
    if (this.lost.has(runId)) return false
    return this.written(runId, await this.runs.finish(runId, event, this.owner))
  }

  private written(runId: string, row: RunEventRow | null): boolean {
    if (row) this.publish(row)
    else this.refused?.(runId)
    return row !== null
  }

  subscribe(runId: string, listener: Listener): () => void {
    let set = this.listeners.get(runId)
    if (!set) this.listeners.set(runId, set = new Set())
    set.add(listener)
    // Once only: a second call must not remove the set a later subscriber made.
    return () => {
      if (set.delete(listener) && !set.size && this.listeners.get(runId) === set) this.listeners.delete(runId)
    }
  }

  /** Hears that the run has finished (here, or told by the queue) without following its other events. */
  watchEnd(runId: string, watcher: () => void): () => void {
    let set = this.endWatchers.get(runId)
    if (!set) this.endWatchers.set(runId, set = new Set())
    set.add(watcher)
    return () => {
      if (set.delete(watcher) && !set.size && this.endWatchers.get(runId) === set) this.endWatchers.delete(runId)
    }
  }

  /** The run has finished: tells its end watchers. */
  ended(runId: string) {
    for (const watcher of this.endWatchers.get(runId) ?? []) watcher()
  }

  /** Whether anyone here follows the run's events. */
  following(runId: string): boolean {
    return this.listeners.has(runId)
  }

  /** Tells the run's subscribers of a committed event (one of this process's writes, or read back after another process wrote it). */
  publish(event: RunEventRow) {
    for (const listener of this.listeners.get(event.runId) ?? []) listener(event)
    if (event.type === 'run.finished') this.ended(event.runId)
  }
}

/** A run's end that no execution produced (cancelled in the queue, interrupted, given up). */
export function endEvent(status: RunResult['status'], error: RunResult['error']): RunFinished {
  return { type: 'run.finished', at: Date.now(), result: { status, verdict: null, output: null, error, steps: {}, duration_ms: 0 } }
}

/** A write that failed outside any caller's await: logged, never an unhandled rejection. */
export function reportWriteFailure(error: unknown): void {
  console.error(`judgeflow: a database write failed: ${(error as Error).message}`)
}
