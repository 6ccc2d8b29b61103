import { JudgeflowError } from '../../engine'
import type { ClaimOneOptions, RunRow, Takeover } from '../rows'
import type { RunFinished, Store } from '../store'
import type { RunJob, RunQueue } from './run-queue'

type EventListener = (runId: string, eventId: number, type?: string) => void

/**
 * A process's own run queue: the contract of the shared one, for a process that executes every run
 * it starts (SQLite, or a run service given no queue). Only this process takes its jobs, so a job
 * goes to its worker in the turn its run is stored — no polling, no timer — and its claim is the row
 * as stored, not a write: a run this process stored holds its lease from the start, and a takeover
 * of it elsewhere (this process stalled past its lease) is fenced off by the store at every write.
 * Jobs beyond `concurrency` wait here, in order.
 */
export class ProcessRunQueue implements RunQueue {
  /** Runs stored here and not claimed yet: their rows as stored. */
  private readonly stored = new Map<string, RunRow>()
  private readonly waiting: RunJob[] = []
  private readonly cancelListeners = new Set<(runId: string) => boolean>()
  private readonly eventListeners = new Set<EventListener>()
  private execute: ((job: RunJob) => Promise<void>) | undefined
  private concurrency = 0
  private inFlight = 0
  private stopped = false
  /** No other process takes this queue's jobs: the process that made it takes every one, as it comes. */
  readonly takenAtOnce = Number.POSITIVE_INFINITY

  constructor(private readonly store: Pick<Store, 'runs' | 'workflows' | 'leases'>) {}

  async submit(run: RunRow, job: RunJob, options: { ifCurrent?: boolean } = {}): Promise<boolean> {
    if (options.ifCurrent && !await this.isCurrent(run)) return false
    const row = await this.store.runs.create({
      id: run.id, workflowId: run.workflowId, workflowVersion: run.workflowVersion, definition: run.definition,
      input: run.input, options: run.options ?? undefined, status: 'queued', owner: run.leaseOwner ?? undefined,
    })
    this.stored.set(row.id, row)
    this.add(job)
    return true
  }

  async enqueue(job: RunJob): Promise<void> {
    if (!this.waiting.some(waiting => waiting.runId === job.runId)) this.add(job)
  }

  async work(concurrency: number, execute: (job: RunJob) => Promise<void>): Promise<void> {
    if (this.execute) {
      throw new JudgeflowError('INVALID_CONFIG', 'runs are executed from a queue only on PostgreSQL (JUDGEFLOW_DATABASE_URL): this process executes the runs it starts', { category: 'system' })
    }
    this.execute = execute
    this.concurrency = concurrency
    this.pump()
  }

  async claim(job: RunJob, options: ClaimOneOptions): Promise<Takeover | null> {
    const run = this.stored.get(job.runId)
    if (!run) return this.store.leases.claimQueued(job.runId, options)
    this.stored.delete(job.runId)
    return { run }
  }

  async withdraw(runId: string, event: RunFinished): Promise<boolean> {
    const at = this.waiting.findIndex(job => job.runId === runId)
    if (at < 0) return false
    const [job] = this.waiting.splice(at, 1)
    this.stored.delete(runId)
    const [row] = await this.store.runs.write(runId, [event], job!.from) ?? []
    if (!row) return false
    for (const listener of this.eventListeners) listener(runId, row.id, row.type)
    return true
  }

  async stopWorking(): Promise<void> {
    this.stopped = true
  }

  /** Only this process can hold a run of its queue: its own listeners answer. */
  async requestCancel(runId: string): Promise<boolean> {
    return [...this.cancelListeners].some(listener => listener(runId))
  }

  onCancel(listener: (runId: string) => boolean): void {
    this.cancelListeners.add(listener)
  }

  /** Hears the ends this queue writes (a withdrawal): the process's own runs' events are told by their writer. */
  onEvent(listener: EventListener): void {
    this.eventListeners.add(listener)
  }

  async close(): Promise<void> {
    this.stopped = true
    this.waiting.length = 0
    this.stored.clear()
  }

  private add(job: RunJob): void {
    this.waiting.push(job)
    this.pump()
  }

  private pump(): void {
    while (!this.stopped && this.execute && this.inFlight < this.concurrency && this.waiting.length) {
      const job = this.waiting.shift()!
      this.inFlight++
      // Called in this turn: the worker has the job before the submit resolves.
      void this.execute(job).catch(reportJobFailure).finally(() => {
        this.inFlight--
        this.pump()
      })
    }
  }

  /**
   * Whether the run's workflow version is the workflow's current one (a run of no stored version
   * always is), read just before the run is stored: a version saved between the two is missed, as
   * it is by a start that reads the workflow itself.
   */
  private async isCurrent(run: RunRow): Promise<boolean> {
    if (!run.workflowId || run.workflowVersion === null) return true
    const workflow = await this.store.workflows.get(run.workflowId)
    return workflow?.version === run.workflowVersion
  }
}

function reportJobFailure(error: unknown): void {
  console.error(`judgeflow: a run could not be taken from the queue: ${(error as Error).message}`)
}
