import type { ClaimOneOptions, RunRow, Takeover } from '../rows'
import type { RunFinished } from '../store'

/** A run's job: the run and the process that stored and queued it. */
export interface RunJob {
  runId: string
  /** The lease holder that queued the run: while the run is queued under this name it is free to take. */
  from: string
}

/**
 * Where started runs go to execute, with one contract for both kinds: a job queue shared by any
 * number of processes (pg-boss on PostgreSQL, `db/pg/queue.ts`), or a process's own queue, whose
 * jobs only that process takes (`process-queue.ts`: SQLite, or a run service given no queue). The
 * queue also carries what the processes tell each other: events committed by whichever process
 * executes a run, and cancel requests.
 */
export interface RunQueue {
  /**
   * Stores a new, queued run and its job as one: committed together, in a transaction shared with
   * the other starts of the same moment; resolves once both are durable, with true. `ifCurrent`:
   * only while the run's workflow version is still the workflow's current one, checked as it is
   * stored; false when it is not (a newer version, or the workflow deleted): nothing stored.
   */
  submit(run: RunRow, job: RunJob, options?: { ifCurrent?: boolean }): Promise<boolean>
  /**
   * How many jobs at a time the process that made the queue takes from the start, unasked: a
   * process's own queue has no other taker, so all of them (Infinity); a shared queue's jobs wait
   * for the workers a process starts (`work`), so none (0).
   */
  readonly takenAtOnce: number
  /** Hands a stored, queued run to the workers again; one job per run (a second is not added while one is waiting). */
  enqueue(job: RunJob): Promise<void>
  /**
   * Takes jobs, `concurrency` at a time, until `stopWorking`: each is done when `execute` settles
   * (the run ended here, or was handed over to another process).
   */
  work(concurrency: number, execute: (job: RunJob) => Promise<void>): Promise<void>
  /**
   * Claims a taken job's run for this process (`options.lease`), so that no run executes twice: a
   * run still queued under the name of the process that queued it, or held by no live process (then
   * counted as a resume). Null when it has ended or a live process holds it.
   */
  claim(job: RunJob, options: ClaimOneOptions): Promise<Takeover | null>
  /**
   * Ends, with `event`, a run no process has taken on yet — its job still waiting, the run queued
   * under the name of the process that queued it — and withdraws the job with it, as one; every
   * process hears of the event as of any other. False (nothing changed) when a worker has the job
   * or a process holds the run.
   */
  withdraw(runId: string, event: RunFinished): Promise<boolean>
  /** Takes no more jobs (those under way go on). */
  stopWorking(): Promise<void>
  /** Asks whichever process holds the run to cancel it: true once that process says it is cancelling it, false when none did in time. */
  requestCancel(runId: string): Promise<boolean>
  /** Hears each cancel request, from any process; the listener answers whether it is cancelling the run. */
  onCancel(listener: (runId: string) => boolean): void
  /** Hears that an event of a run was committed, by any process (its id and type; the row is in the store). */
  onEvent(listener: (runId: string, eventId: number, type?: string) => void): void
  close(): Promise<void>
}
