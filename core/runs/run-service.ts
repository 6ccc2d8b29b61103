import { finalRunStatuses, type JudgeflowError, type RunResult } from '../../engine'
import type { RunEventRow, RunRow } from '../rows'
import type { MaybePromise, WorkflowWithDefinition } from '../store'
import { Cancellation, STOP_WAIT_MS } from './cancellation'
import { Dispatch, NotCurrent } from './dispatch'
import { Following, type EventSink } from './following'
import { DEFAULT_LEASE_MS, newLeaseOwner, type LeaseKeeper } from './leases'
import { LocalRuns } from './local-runs'
import { ProcessRunQueue } from './process-queue'
import type { RunQueue } from './run-queue'
import type { ResumeOutcome, RunServiceDeps, StartRun } from './types'
import { ValidatedWorkflows } from './validated-workflows'

export type { ResumeOutcome, RunServiceDeps, StartRun } from './types'
export { STOP_WAIT_MS } from './cancellation'

/** Workflows whose current version a process keeps at most (`startCurrent`). */
const KEPT_WORKFLOWS = 256

/**
 * Runs workflows durably: every event and step is committed before the executor moves on
 * (writes of concurrent runs share transactions), runs beyond the concurrency limit wait in
 * a queue, and runs left unfinished by a dead process are resumed from their committed steps.
 * A process holds its runs by a lease its heartbeat renews; a run whose lease expired is free
 * for any process to take over.
 *
 * It puts together four parts: where a run executes (`Dispatch`: the run queue, claims and
 * takeovers), the runs held here with their lease and writes (`LocalRuns`), following a run that
 * executes elsewhere (`Following`) and cancelling it wherever it is (`Cancellation`). Every rule has
 * one path: the queue is the shared one given (`deps.queue`), or this process's own.
 */
export class RunService {
  readonly owner: string
  private readonly queue: RunQueue
  private readonly local: LocalRuns
  private readonly leases: LeaseKeeper
  private readonly dispatch: Dispatch
  private readonly following: Following
  private readonly cancellation: Cancellation
  private readonly now: () => number
  /** Per workflow, the current version as last read, the oldest first. */
  private readonly currentWorkflows = new Map<string, WorkflowWithDefinition>()
  /** Per workflow, its read going on: the starts arriving meanwhile share it. */
  private readonly readingWorkflows = new Map<string, Promise<WorkflowWithDefinition | null>>()
  private closed = false
  private watching?: (outcome: ResumeOutcome) => void

  constructor(private readonly deps: RunServiceDeps) {
    const owner = this.owner = deps.owner ?? newLeaseOwner()
    const now = this.now = deps.now ?? Date.now
    const limit = deps.maxConcurrentRuns ?? 16
    const closed = () => this.closed
    const queue = this.queue = deps.queue ?? new ProcessRunQueue(deps.store)
    const local = this.local = new LocalRuns({ ...deps, owner, leaseMs: deps.leaseMs ?? DEFAULT_LEASE_MS, now, limit, closed })
    const { leases, writes } = local
    this.leases = leases
    const dispatch = this.dispatch = new Dispatch({
      ...deps, queue, owner, local, leases, limit, now, closed,
      validated: new ValidatedWorkflows(deps.registry, deps.providers),
      maxQueued: deps.maxQueuedRuns ?? 1000,
    })
    const following = this.following = new Following({ store: deps.store, writes, executingHere: runId => local.executing(runId) })
    this.cancellation = new Cancellation({ ...deps, queue, owner, local, dispatch, following, leases, writes, now })
    leases.afterEachBeat(() => this.takeOver())
    queue.onEvent((runId, eventId, type) => following.heard(runId, eventId, type))
    queue.onCancel(runId => this.cancel(runId))
    // A process's own queue has no other taker: each run started here is taken here at once, to wait its turn among the runs held here.
    void dispatch.work(queue.takenAtOnce)
  }

  /**
   * Throws TOO_MANY_RUNS when no start can be taken now. A caller under load asks this first, so a
   * refusal costs no body parsed and no workflow read (`start` checks it again).
   */
  refuseWhenFull(): void {
    this.dispatch.refuseWhenFull()
  }

  /** Checks the definition, input and keys (throwing a user error), stores the run and schedules it. */
  start(request: StartRun): Promise<RunRow> {
    return this.dispatch.start(request)
  }

  /**
   * Starts a run of the workflow's current version; null when there is no such workflow. The
   * workflow is read once and kept: each start is stored only while the version kept is still the
   * current one (checked as the queue stores it), and one that is not reads the workflow again.
   * The starts that arrive while it is being read share that read (a burst of starts on a new
   * process reads it once, not once each), checked in the same way, as the read began before they
   * arrived.
   */
  async startCurrent(workflowId: string, fields: Pick<StartRun, 'input' | 'options'>): Promise<{ run: RunRow, workflow: WorkflowWithDefinition } | null> {
    const start = (workflow: WorkflowWithDefinition, ifCurrent: boolean) => this.dispatch.start({
      ...fields, definition: workflow.definition, workflowId: workflow.id, workflowVersion: workflow.version, ifCurrent,
    })
    // Stored only while the version is still the current one; undefined (and the version no longer kept) when it is not.
    const startIfCurrent = async (workflow: WorkflowWithDefinition) => {
      try {
        return { run: await start(workflow, true), workflow }
      }
      catch (error) {
        if (!(error instanceof NotCurrent)) throw error
        if (this.currentWorkflows.get(workflowId) === workflow) this.currentWorkflows.delete(workflowId)
        return undefined
      }
    }
    const kept = this.currentWorkflows.get(workflowId)
    const fromKept = kept && await startIfCurrent(kept)
    if (fromKept) return fromKept
    // A read going on now may have begun before this start arrived: its version is checked.
    const reading = this.readingWorkflows.get(workflowId)
    const shared = reading && await reading
    const fromShared = shared && await startIfCurrent(shared)
    if (fromShared) return fromShared
    // Any read going on from here began after this start arrived: its version needs no check.
    const workflow = await (this.readingWorkflows.get(workflowId) ?? this.readWorkflow(workflowId))
    return workflow && { run: await start(workflow, false), workflow }
  }

  /** Reads the workflow's current version, and keeps it; the starts arriving meanwhile share the read. */
  private readWorkflow(workflowId: string): Promise<WorkflowWithDefinition | null> {
    const read = Promise.resolve(this.deps.store.workflows.get(workflowId)).then((workflow) => {
      if (workflow) {
        if (this.currentWorkflows.size >= KEPT_WORKFLOWS) this.currentWorkflows.delete(this.currentWorkflows.keys().next().value!)
        this.currentWorkflows.set(workflowId, workflow)
      }
      return workflow
    })
    this.readingWorkflows.set(workflowId, read)
    const done = () => { if (this.readingWorkflows.get(workflowId) === read) this.readingWorkflows.delete(workflowId) }
    read.then(done, done)
    return read
  }

  /** Runs a stored run to its end in this process (the CLI's path). */
  runToEnd(request: StartRun): Promise<{ run: RunRow, result: RunResult | undefined }> {
    return this.dispatch.runToEnd(request)
  }

  /** Cancels a run this process has (waiting, being claimed or executing); false when it is not here. */
  cancel(runId: string): boolean {
    return this.cancellation.here(runId) !== undefined
  }

  /**
   * A person's cancel: stops the run wherever it executes; marks it interrupted, with the reason,
   * when the database shows it unfinished but no live process holds it (its lease expired or its
   * holder is gone); otherwise refuses with a NOT_CANCELLABLE error saying why.
   */
  cancelOrInterrupt(runId: string): Promise<'cancelling' | 'interrupted'> {
    return this.cancellation.cancel(runId)
  }

  /**
   * The same cancel, for a caller that only needs to know whether the run is ending (a dataset run or a
   * round stopping): false when it cannot be cancelled; any other failure (the database's) is thrown.
   */
  cancelAnywhere(runId: string): Promise<boolean> {
    return this.cancellation.cancel(runId).then(() => true, (error: unknown) => {
      if ((error as JudgeflowError).code === 'NOT_CANCELLABLE') return false
      throw error
    })
  }

  /** See `Cancellation.deleteWorkflowWith`: ends the workflow's runs wherever they are, then calls `remove`. */
  deleteWorkflowWith<T>(workflowId: string, remove: () => MaybePromise<T>, waitMs = STOP_WAIT_MS): Promise<{ removed: T } | { stillRunning: string[] }> {
    return this.cancellation.deleteWorkflowWith(workflowId, remove, waitMs)
  }

  /** Hears each of the run's events once it is committed. */
  subscribe(runId: string, listener: (event: RunEventRow) => void): () => void {
    return this.following.subscribe(runId, listener)
  }

  /** See `Following.stream`: the run's events after `after`, stored then live, to its end. */
  streamEvents(runId: string, after: number, sink: EventSink): Promise<void> {
    return this.following.stream(runId, after, sink, run => this.hasEnded(run))
  }

  /** Resolves with the run's row once it has ended, wherever it executes. */
  whenEnded(runId: string, checkEveryMs?: number): Promise<RunRow> {
    return this.following.whenEnded(runId, checkEveryMs)
  }

  isActive(runId: string): boolean {
    return this.local.has(runId) || this.dispatch.claimOf(runId) !== undefined
  }

  /**
   * Whether the run has nothing more to tell: its row says it ended and this process is not
   * executing it (whose last events may be uncommitted yet). A follower stops here.
   */
  hasEnded(run: { id: string, status: string }): boolean {
    return finalRunStatuses.has(run.status) && !this.isActive(run.id)
  }

  /** See `Dispatch.resumeUnfinished`: takes over the runs left by processes that are gone. */
  resumeUnfinished(): Promise<ResumeOutcome> {
    return this.dispatch.resumeUnfinished()
  }

  /** Executes runs from the shared queue, `concurrency` at a time, until `drain` (PostgreSQL: this process is a worker). */
  work(concurrency: number): Promise<void> {
    return this.dispatch.work(concurrency)
  }

  /**
   * From now on, at every heartbeat, takes over the runs whose holder stopped renewing its lease
   * (another process that crashed, or hangs as a zombie); `report` hears of each takeover.
   */
  watchLeases(report: (outcome: ResumeOutcome) => void): void {
    this.watching = report
    this.leases.watch()
  }

  /** Renews this process's lease now (the timer does it every third of the lease). */
  heartbeat(): Promise<void> {
    return this.leases.beat()
  }

  /**
   * Stops starting runs and gives the active ones `graceMs` to finish. Whatever is still running
   * stays `running` in the database with its completed steps committed, and resumes at the next start.
   */
  async drain(graceMs = this.deps.shutdownGraceMs ?? 10_000): Promise<void> {
    this.closed = true
    await this.queue.stopWorking()
    await this.local.settle(graceMs)
    // Hand the rest over: another process may take them at once, and this one writes no more to them.
    this.leases.stop()
    this.local.letGo()
    await this.deps.store.leases.release(this.owner, this.now())
  }

  private async takeOver() {
    if (!this.watching || this.closed) return
    const outcome = await this.resumeUnfinished()
    if (outcome.resumed.length || outcome.interrupted.length || outcome.failed.length) this.watching(outcome)
  }
}
