import type { RunEvent, RunResult } from '../../engine'
import type { RunEventRow } from '../rows'
import type { RunFinished, RunRepository } from '../store'

type Listener = (event: RunEventRow) => void

/**
 * How long a run's or a step's start may wait to be written with the run's next event. Nothing
 * waits on a start being durable, so a start goes with what the run writes next; a long step's
 * start is written alone after this time: a live view shows a step running this much later at most.
 */
export const START_HELD_MS = 100

/** The starts: held up to START_HELD_MS. Any other event is written in the turn it comes in, with the run's other events of that turn. */
const STARTS = new Set<string>(['run.started', 'step.started'])

interface Held {
  events: RunEvent[]
  timer: NodeJS.Timeout | undefined
  /** A write at the end of this turn is due (an event other than a start is held). */
  soon: NodeJS.Immediate | undefined
}

/**
 * Writes runs' events and ends through the store, and tells a run's subscribers of each event
 * once it is committed. Every write is fenced by this process's name: the store writes only while
 * the run is held here. A run marked lost (another process has taken it over: seen by the lease's
 * renewal, or by a write the store refused) gets no more writes from this process.
 *
 * A run's events are written together where they can be: the events of one turn of the event loop
 * (a step's end and the next step's start) in one commit, the starts with whatever comes next. What
 * needs an event durable asks for it: a step's work starts only after `commit` (so a completed
 * step's output is committed before the next step does anything), and the run's end is written
 * with everything before it.
 */
export class RunWriter {
  private readonly listeners = new Map<string, Set<Listener>>()
  private readonly endWatchers = new Map<string, Set<() => void>>()
  /** Per run, events not written yet. */
  private readonly held = new Map<string, Held>()
  /** Per run, its last write: resolves with its error, or undefined once committed (`commit` waits for it). */
  private readonly writing = new Map<string, Promise<unknown>>()
  /** Per run, a write that failed with no one waiting on it: thrown to the run's next call. */
  private readonly failed = new Map<string, unknown>()
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

  /**
   * Takes the event to write: a start within START_HELD_MS, any other event in this turn, each with
   * the run's other events held by then. False when the run is no longer held here. A write that
   * failed with no one waiting on it is thrown here.
   */
  async event(runId: string, event: RunEvent): Promise<boolean> {
    await this.beforeWrite?.()
    if (this.lost.has(runId)) return false
    this.throwFailed(runId)
    let held = this.held.get(runId)
    if (!held) this.held.set(runId, held = { events: [], timer: undefined, soon: undefined })
    held.events.push(event)
    if (!STARTS.has(event.type)) held.soon ??= setImmediate(() => void this.writeHeld(runId))
    else if (!held.timer) {
      held.timer = setTimeout(() => void this.writeHeld(runId), START_HELD_MS)
      held.timer.unref?.()
    }
    return true
  }

  /**
   * Resolves once every event of the run taken so far, starts aside, is committed (writing those
   * held now): a step's work waits for it. Rejects when one of those writes failed.
   */
  async commit(runId: string): Promise<void> {
    await this.beforeWrite?.()
    this.throwFailed(runId)
    if (this.lost.has(runId)) return
    const held = this.held.get(runId)
    if (held?.events.some(e => !STARTS.has(e.type))) await this.write(runId)
    else {
      const error = await this.writing.get(runId)
      if (error !== undefined) throw error
    }
    // An earlier write of the run that failed with no one waiting (its events are not committed).
    this.throwFailed(runId)
  }

  /** Writes the run's end with what is held before it, then tells the subscribers; false when not written. */
  async finish(runId: string, event: RunFinished): Promise<boolean> {
    await this.beforeWrite?.()
    if (this.lost.has(runId)) return false
    this.failed.delete(runId)
    return this.write(runId, event)
  }

  /** The run's held events, taken to be written now. */
  private take(runId: string): RunEvent[] {
    const held = this.held.get(runId)
    if (!held) return []
    clearTimeout(held.timer)
    if (held.soon) clearImmediate(held.soon)
    this.held.delete(runId)
    return held.events
  }

  /** Writes what is held, and the run's end after it if given (taken and handed to the store at once, so the run's writes keep their order). */
  private write(runId: string, end?: RunFinished): Promise<boolean> {
    const events = end ? [...this.take(runId), end] : this.take(runId)
    if (!events.length || this.lost.has(runId)) return Promise.resolve(true)
    const written = this.runs.write(runId, events, this.owner).then(rows => this.writtenAll(runId, rows))
    this.writing.set(runId, outcome(written))
    return written
  }

  /** Writes what is held when its time has come; a failure is thrown to the run's next call. */
  private async writeHeld(runId: string): Promise<void> {
    try {
      await this.beforeWrite?.()
      await this.write(runId)
    }
    catch (error) {
      this.failed.set(runId, error)
    }
  }

  private throwFailed(runId: string): void {
    if (!this.failed.has(runId)) return
    const error = this.failed.get(runId)
    this.failed.delete(runId)
    throw error
  }

  /** Forgets a run that stopped here (ended, lost, or let go): nothing more is written for it. */
  drop(runId: string): void {
    this.take(runId)
    this.failed.delete(runId)
    this.writing.delete(runId)
  }

  private writtenAll(runId: string, rows: RunEventRow[] | null): boolean {
    if (rows) for (const row of rows) this.publish(row)
    else this.refused?.(runId)
    return rows !== null
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

/** What a write came to: its error, or undefined once committed. */
const outcome = (write: Promise<unknown>): Promise<unknown> => write.then(() => undefined, (error: unknown) => error ?? new Error('a write failed'))

/** A run's end that no execution produced (cancelled in the queue, interrupted, given up). */
export function endEvent(status: RunResult['status'], error: RunResult['error']): RunFinished {
  return { type: 'run.finished', at: Date.now(), result: { status, verdict: null, output: null, error, steps: {}, duration_ms: 0 } }
}

/** A write that failed outside any caller's await: logged, never an unhandled rejection. */
export function reportWriteFailure(error: unknown): void {
  console.error(`judgeflow: a database write failed: ${(error as Error).message}`)
}
