import type { RunEvent, RunResult } from '../../engine'
import type { RunEventRow } from '../../db'
import type { RunFinished, RunRepository } from '../store'

type Listener = (event: RunEventRow) => void

/**
 * Writes runs' events and ends through the store, and tells a run's subscribers of each event
 * once it is committed. A run marked lost (another process has taken it over) gets no more
 * writes from this process.
 */
export class RunWriter {
  private readonly listeners = new Map<string, Set<Listener>>()
  private readonly endWatchers = new Map<string, Set<() => void>>()
  readonly lost = new Set<string>()

  /** `beforeWrite`: makes sure this process still holds its runs (a late lease renewed, runs taken over marked lost). */
  constructor(private readonly runs: RunRepository, private readonly beforeWrite?: () => Promise<void> | undefined) {}

  async event(runId: string, event: RunEvent): Promise<void> {
    await this.beforeWrite?.()
    if (this.lost.has(runId)) return
    this.publish(await this.runs.record(runId, event))
  }

  /** Writes the run's end and its last event together, then tells the subscribers. */
  async finish(runId: string, event: RunFinished): Promise<void> {
    await this.beforeWrite?.()
    if (this.lost.has(runId)) return
    this.publish(await this.runs.finish(runId, event))
  }

  subscribe(runId: string, listener: Listener): () => void {
    let set = this.listeners.get(runId)
    if (!set) this.listeners.set(runId, set = new Set())
    set.add(listener)
    return () => {
      set.delete(listener)
      if (!set.size) this.listeners.delete(runId)
    }
  }

  /** Hears that the run has finished (here, or told by the queue) without following its other events. */
  watchEnd(runId: string, watcher: () => void): () => void {
    let set = this.endWatchers.get(runId)
    if (!set) this.endWatchers.set(runId, set = new Set())
    set.add(watcher)
    return () => {
      set.delete(watcher)
      if (!set.size) this.endWatchers.delete(runId)
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
