import { Execution, finalRunStatuses, JudgeflowError, prepareInput, serializeError, validatedWorkflow, type EvaluationServices, type Providers, type RunOptions, type RunResult, type StepRegistry, type StorageLimits, type Workflow } from '../../engine'
import type { ResumeDecision, ResumeProgress, RunEventRow, RunRow } from '../rows'
import type { MaybePromise, Store } from '../store'
import { withDeadline } from './deadline'
import { isUnfinishedStatus } from '../rows'
import { DEFAULT_LEASE_MS, DEFAULT_MAX_RESUMES, LeaseKeeper, leaseIsFree, newLeaseOwner, resumeDecision } from './leases'
import { endEvent, reportWriteFailure, RunWriter } from './run-writer'
import type { RunJob, RunQueue } from './run-queue'
import { ValidatedWorkflows } from './validated-workflows'

export interface RunServiceDeps {
  store: Store
  registry: StepRegistry
  providers: Providers
  /** The app's registries, worker pool and trace cache, for evaluator steps. */
  evaluation?: EvaluationServices
  /** How much a step and a run may render and store. */
  limits?: StorageLimits
  /** How long a stopping process lets its runs finish (JUDGEFLOW_SHUTDOWN_GRACE_MS, 10 s). */
  shutdownGraceMs?: number
  /** Runs executing at once; more wait in a queue. */
  maxConcurrentRuns?: number
  /** Runs waiting for a slot at most (JUDGEFLOW_MAX_QUEUED_RUNS, 1,000). */
  maxQueuedRuns?: number
  /** This process's name as a lease holder (default: host, pid and a token new at every start). */
  owner?: string
  /** How long a run's lease holds without a heartbeat (JUDGEFLOW_RUN_LEASE_MS, 15 s). */
  leaseMs?: number
  /** Resumes in a row without a new committed step before a run is failed (JUDGEFLOW_RUN_MAX_RESUMES, 2). */
  maxResumes?: number
  /** The clock of leases (tests move it). */
  now?: () => number
  /**
   * Where started runs execute (PostgreSQL: a pg-boss queue that worker processes take jobs from,
   * `work`); without it, in this process, in a queue of its own.
   */
  queue?: RunQueue
}

export interface ResumeOutcome {
  resumed: string[]
  interrupted: string[]
  /** Given up after too many resumes without progress. */
  failed: string[]
}

export interface StartRun {
  /** The run's id, when the caller recorded it before starting the run (a dataset run does); a new one otherwise. */
  id?: string
  definition: Record<string, unknown>
  workflowId?: string | null
  workflowVersion?: number | null
  input?: unknown
  options?: RunOptions
}

/**
 * A run ready to execute: what its execution needs of the stored row (not its definition: the
 * validated workflow stands for it, shared by the runs of one version), so a long queue of runs
 * waiting for a slot holds little each.
 */
interface Prepared {
  run: Pick<RunRow, 'id' | 'workflowId' | 'status' | 'options'>
  workflow: Workflow
  input: Record<string, unknown>
}

const preparedRun = ({ id, workflowId, status, options }: RunRow): Prepared['run'] => ({ id, workflowId, status, options })

/** How long a workflow's deletion waits for its cancelled runs to stop. */
export const STOP_WAIT_MS = 10_000
/** How often `whenEnded` looks at a run no event of this process tells about. */
const ENDED_CHECK_MS = 5_000
/** How often a workflow's deletion looks at its runs stopping on other processes. */
const ELSEWHERE_CHECK_MS = 250
const CANCELLED_BEFORE_START = { code: 'CANCELLED', category: 'user', message: 'the run was cancelled before it started' } as const

/**
 * Runs workflows durably: every event and step is committed before the executor moves on
 * (writes of concurrent runs share transactions), runs beyond the concurrency limit wait in
 * a queue, and runs left unfinished by a dead process are resumed from their committed steps.
 * A process holds its runs by a lease its heartbeat renews; a run whose lease expired is free
 * for any process to take over.
 */
export class RunService {
  readonly owner: string
  private readonly active = new Map<string, { workflowId: string | null, controller: AbortController, done: Promise<RunResult | undefined> }>()
  private readonly queue: Prepared[] = []
  /** Starts under way (checked, not yet queued), so a workflow's deletion can wait for them. */
  private readonly starts = new Set<{ workflowId: string | null, settled: Promise<unknown> }>()
  /** Workflows being deleted (with how many deletions wait on each): no run of them starts. */
  private readonly closing = new Map<string, number>()
  private readonly validated: ValidatedWorkflows
  private readonly writes: RunWriter
  private readonly limit: number
  /** Runs waiting for a slot at most; beyond, a start is refused (HTTP 429) instead of piling up. */
  private readonly maxQueued: number
  private closed = false
  private readonly leases: LeaseKeeper
  private readonly now: () => number
  private watching?: (outcome: ResumeOutcome) => void
  /** Taking jobs from the queue. */
  private working = false
  /** Jobs whose run this process is claiming: a cancel arriving meanwhile is kept, and the run ends cancelled once claimed. */
  private readonly claiming = new Map<string, { cancelled: boolean, done: Promise<void> }>()
  /** Per run followed here but executed elsewhere: the id of the last event read (a chain, one read at a time). */
  private readonly remote = new Map<string, Promise<number>>()
  /** Whether a run this process takes over resumes or is given up (both stores ask it inside their claim). */
  private readonly resumeRule: (run: ResumeProgress, lastStepAt: number | null) => ResumeDecision

  constructor(private readonly deps: RunServiceDeps) {
    this.resumeRule = (run, lastStepAt) => resumeDecision(run, lastStepAt, deps.maxResumes ?? DEFAULT_MAX_RESUMES)
    this.owner = deps.owner ?? newLeaseOwner()
    this.limit = deps.maxConcurrentRuns ?? 16
    this.maxQueued = deps.maxQueuedRuns ?? 1000
    this.writes = new RunWriter(deps.store.runs, this.owner, () => this.leases.current(), runId => this.lose(runId))
    this.validated = new ValidatedWorkflows(deps.registry)
    this.now = deps.now ?? Date.now
    this.leases = new LeaseKeeper(deps.store.leases, {
      owner: this.owner, leaseMs: deps.leaseMs ?? DEFAULT_LEASE_MS, now: this.now,
      held: () => [...this.active.keys(), ...this.queue.map(item => item.run.id)],
      lost: runId => this.lose(runId),
      onBeat: () => this.takeOver(),
    })
    deps.queue?.onEvent((runId, eventId, type) => this.heard(runId, eventId, type))
    deps.queue?.onCancel(runId => this.cancel(runId))
  }

  /** Checks the definition, input and keys (throwing a user error), stores the run and schedules it. */
  async start(request: StartRun): Promise<RunRow> {
    const waiting = this.queue.length + this.starts.size
    if (waiting >= this.maxQueued) {
      throw new JudgeflowError('TOO_MANY_RUNS', `${waiting} runs are already waiting for one of the ${this.limit} run slots (JUDGEFLOW_MAX_QUEUED_RUNS); try again when some have finished.`)
    }
    if (request.workflowId && this.closing.has(request.workflowId)) {
      throw new JudgeflowError('CONFLICT', `workflow "${request.workflowId}" is being deleted: no new run of it can start.`)
    }
    const { queue } = this.deps
    const queued = this.prepare(request).then(async ({ run, workflow, input }) => {
      if (queue) {
        await queue.enqueue({ runId: run.id, from: this.owner })
        return run
      }
      this.queue.push({ run: preparedRun(run), workflow, input })
      this.pump()
      this.leases.keepBeating(true)
      return run
    })
    // Counted from here, so starts arriving together cannot all pass the check before any is queued.
    const start = { workflowId: request.workflowId ?? null, settled: queued.catch(() => undefined) }
    this.starts.add(start)
    try {
      return await queued
    }
    finally {
      this.starts.delete(start)
    }
  }

  /** Runs a stored run to its end in this process (the CLI's path). */
  async runToEnd(request: StartRun): Promise<{ run: RunRow, result: RunResult | undefined }> {
    const { run, workflow, input } = await this.prepare(request)
    this.leases.keepBeating(true)
    return { run, result: await this.launch({ run: preparedRun(run), workflow, input }, false) }
  }

  /** Cancels a queued or running run; false when it is not active here. */
  cancel(runId: string): boolean {
    return this.stop(runId) !== undefined
  }

  /**
   * Ends every queued or running run of a workflow — with a shared queue, also those waiting in it
   * or executing on other processes — then calls `remove` (which deletes the workflow with its runs)
   * in the same turn, so no run of it writes after its rows are gone.
   * No run of the workflow starts meanwhile, nor before `remove` has resolved; starts under way
   * are waited for, then cancelled with the rest. Every subscriber gets each run's `run.finished`. Runs still going after
   * `waitMs` are returned and `remove` is not called.
   */
  async deleteWorkflowWith<T>(workflowId: string, remove: () => MaybePromise<T>, waitMs = STOP_WAIT_MS): Promise<{ removed: T } | { stillRunning: string[] }> {
    this.closing.set(workflowId, (this.closing.get(workflowId) ?? 0) + 1)
    try {
      await Promise.all([...this.starts].filter(s => s.workflowId === workflowId).map(s => s.settled))
      const ids = [...this.queue.map(item => item.run), ...[...this.active].map(([id, a]) => ({ id, workflowId: a.workflowId }))]
        .filter(run => run.workflowId === workflowId).map(run => run.id)
      // With a shared queue, runs of the workflow may wait in it or execute on other processes: each is cancelled where it is.
      const { queue, store } = this.deps
      const unfinished = queue ? (await store.runs.unfinished(workflowId)).filter(id => !ids.includes(id)) : []
      const claimed = unfinished.filter(id => this.claiming.has(id))
      const elsewhere = unfinished.filter(id => !this.claiming.has(id))
      // The runs waiting in the queue leave it first: a worker's slot freed by a cancel would otherwise take the next of them.
      await Promise.all(elsewhere.map(id => this.withdraw(id).catch(() => false)))
      await withDeadline(Promise.all([...ids, ...claimed].map(id => this.stop(id)).concat(elsewhere.map(id => this.stopElsewhere(id)))), waitMs)
      // A stream here following one of them gets its last events before the rows go.
      await Promise.all(unfinished.map(id => this.catchUp(id)))
      const statuses = unfinished.length ? await store.runs.statuses(unfinished) : new Map<string, string>()
      const stillRunning = [...ids.filter(id => this.active.has(id)), ...unfinished.filter(id => isUnfinishedStatus(statuses.get(id) ?? ''))]
      return stillRunning.length ? { stillRunning } : { removed: await remove() }
    }
    finally {
      const waiting = this.closing.get(workflowId)! - 1
      if (waiting) this.closing.set(workflowId, waiting)
      else this.closing.delete(workflowId)
    }
  }

  /** Stops a queued or running run of this process; what to wait for, or undefined when it is not here. */
  private stop(runId: string): Promise<unknown> | undefined {
    const queued = this.queue.findIndex(item => item.run.id === runId)
    if (queued >= 0) {
      this.queue.splice(queued, 1)
      return this.writes.finish(runId, endEvent('cancelled', CANCELLED_BEFORE_START)).catch(reportWriteFailure)
    }
    const claim = this.claiming.get(runId)
    if (claim) {
      claim.cancelled = true
      return claim.done
    }
    const active = this.active.get(runId)
    if (!active) return undefined
    active.controller.abort()
    return active.done
  }

  /**
   * Cancels a run wherever it is: in this process, waiting in the shared queue (its job withdrawn
   * with the run's end), or on the live process holding it, which is asked. False when none of
   * these could (the run has ended, or its holder did not answer).
   */
  async cancelAnywhere(runId: string): Promise<boolean> {
    if (this.cancel(runId) || await this.withdraw(runId)) return true
    return this.deps.queue ? this.deps.queue.requestCancel(runId) : false
  }

  /** A run still waiting in the shared queue, taken by no process: its job is withdrawn and the run ended cancelled, together. */
  private async withdraw(runId: string): Promise<boolean> {
    const { queue, store } = this.deps
    if (!queue || !store.leases.cancelQueued) return false
    return (await store.leases.cancelQueued(runId, endEvent('cancelled', CANCELLED_BEFORE_START))) !== null
  }

  /** A workflow's run on another process (or waiting in the queue): cancelled, or marked interrupted when its holder is gone; then waited for. */
  private async stopElsewhere(runId: string): Promise<void> {
    // Refused when it ended meanwhile, or when its holder did not answer: then only its end (or the deadline) is waited for.
    await this.cancelOrInterrupt(runId).catch(() => undefined)
    await this.whenEnded(runId, ELSEWHERE_CHECK_MS).catch(() => undefined)
  }

  /**
   * A person's cancel: stops the run when this process has it; marks it interrupted, with the
   * reason, when the database shows it unfinished but no live process holds it (its lease expired
   * or its holder is gone); otherwise refuses with a NOT_CANCELLABLE error saying why.
   */
  async cancelOrInterrupt(runId: string): Promise<'cancelling' | 'interrupted'> {
    if (this.cancel(runId) || await this.withdraw(runId)) return 'cancelling'
    await this.leases.ensure()
    const now = this.now()
    const { queue, store } = this.deps
    let reason: string
    try {
      reason = await store.leases.claimToInterrupt(runId, {
        owner: this.owner, now, lease: this.leases.next(), isFree: lease => leaseIsFree(lease, this.owner, now),
      })
    }
    catch (error) {
      // Another live process holds it (a worker): it cancels the run when asked, and says so; a holder that does not answer is refused as before.
      const lease = queue && (error as JudgeflowError).code === 'NOT_CANCELLABLE' ? await store.leases.get(runId) : null
      if (!queue || !lease || !isUnfinishedStatus(lease.status) || !(await queue.requestCancel(runId))) throw error
      return 'cancelling'
    }
    if (!await this.writes.finish(runId, endEvent('interrupted', { code: 'CANCELLED', category: 'user', message: reason }))) {
      throw new JudgeflowError('NOT_CANCELLABLE', `run "${runId}" was taken on by another judgeflow process meanwhile: cancel it again`)
    }
    return 'interrupted'
  }

  /** Hears each of the run's events once it is committed. */
  subscribe(runId: string, listener: (event: RunEventRow) => void): () => void {
    return this.writes.subscribe(runId, listener)
  }

  /**
   * Resolves with the run's row once it has ended: told by `run.finished` (committed here, or
   * NOTIFYed by the process executing it), and checked now and then in case that word never came
   * (the listening connection dropped meanwhile).
   */
  whenEnded(runId: string, checkEveryMs = ENDED_CHECK_MS): Promise<RunRow> {
    const { store } = this.deps
    return new Promise((resolve, reject) => {
      let done = false
      const check = async () => {
        try {
          const run = await store.runs.get(runId)
          if (!run) throw new JudgeflowError('NOT_FOUND', `run "${runId}" does not exist`)
          if (!done && finalRunStatuses.has(run.status)) finish(run)
        }
        catch (error) {
          if (done) return
          done = true
          stop()
          clearInterval(timer)
          reject(error)
        }
      }
      const finish = (run: RunRow) => {
        if (done) return
        done = true
        stop()
        clearInterval(timer)
        resolve(run)
      }
      const stop = this.writes.watchEnd(runId, () => void check())
      const timer = setInterval(() => void check(), checkEveryMs)
      void check()
    })
  }

  isActive(runId: string): boolean {
    return this.active.has(runId) || this.claiming.has(runId) || this.queue.some(item => item.run.id === runId)
  }

  /**
   * Whether the run has nothing more to tell: its row says it ended and this process is not
   * executing it (whose last events may be uncommitted yet). A follower stops here.
   */
  hasEnded(run: { id: string, status: string }): boolean {
    return finalRunStatuses.has(run.status) && !this.isActive(run.id)
  }

  /**
   * Takes over runs left queued or running by a process that is gone (their lease expired, or
   * their holder no longer exists): running ones resume from their committed steps; one that
   * cannot run any more is marked interrupted, and one that keeps failing to resume is marked
   * failed, each with the reason.
   */
  async resumeUnfinished(): Promise<ResumeOutcome> {
    const outcome: ResumeOutcome = { resumed: [], interrupted: [], failed: [] }
    if (this.closed) return outcome
    const { store, registry } = this.deps
    await this.leases.ensure()
    const now = this.now()
    const claimed = await store.leases.claimOrphans({
      owner: this.owner, now, lease: this.leases.next(), isFree: lease => leaseIsFree(lease, this.owner, now),
      resume: this.resumeRule, skip: runId => this.isActive(runId),
    })
    for (const { run, giveUp } of claimed) {
      if (giveUp) {
        this.writes.finish(run.id, endEvent('failed', { code: 'RESUME_LIMIT', category: 'system', message: giveUp })).catch(reportWriteFailure)
        outcome.failed.push(run.id)
        continue
      }
      let prepared: Prepared
      try {
        const workflow = validatedWorkflow(run.definition, registry)
        prepared = { run, workflow, input: prepareInput(workflow, { ...this.deps, input: run.input }) }
      }
      catch (error) {
        const reason = `the run could not be resumed after a restart: ${(error as Error).message}`
        this.writes.finish(run.id, endEvent('interrupted', { ...serializeError(error), message: reason })).catch(reportWriteFailure)
        outcome.interrupted.push(run.id)
        continue
      }
      outcome.resumed.push(run.id)
      if (run.status === 'queued') this.queue.push(prepared)
      else void this.launch(prepared, true)
    }
    this.pump()
    return outcome
  }

  /**
   * Executes runs from the queue, `concurrency` at a time, until `drain` (PostgreSQL: this process
   * is a worker). A job's run is claimed first: one another process holds or that has ended is
   * left alone, so a job taken twice runs nothing twice.
   */
  async work(concurrency: number): Promise<void> {
    const { queue } = this.deps
    if (!queue) throw new JudgeflowError('INVALID_CONFIG', 'runs are executed from a queue only on PostgreSQL (JUDGEFLOW_DATABASE_URL)', { category: 'system' })
    this.working = true
    this.leases.keepBeating(true)
    await queue.work(concurrency, job => this.executeJob(job))
  }

  private async executeJob(job: RunJob): Promise<void> {
    if (this.closed || this.isActive(job.runId)) return
    const claim = { cancelled: false, done: Promise.resolve() }
    this.claiming.set(job.runId, claim)
    const claiming = this.claimJob(job, claim).finally(() => this.claiming.delete(job.runId))
    claim.done = claiming.then(() => {}, () => {})
    const launched = await claiming
    await launched?.done
  }

  /** Claims the job's run; once it is launched here, its execution to wait for. */
  private async claimJob({ runId, from }: RunJob, claim: { cancelled: boolean }): Promise<{ done: Promise<unknown> } | undefined> {
    const { store, registry } = this.deps
    await this.leases.ensure()
    const now = this.now()
    const takeover = await store.leases.claimQueued(runId, {
      owner: this.owner, now, lease: this.leases.next(), from,
      isFree: lease => leaseIsFree(lease, this.owner, now), resume: this.resumeRule,
    })
    if (!takeover) return
    const { run, giveUp } = takeover
    if (claim.cancelled) {
      await this.writes.finish(run.id, endEvent('cancelled', CANCELLED_BEFORE_START)).catch(reportWriteFailure)
      return
    }
    if (giveUp) {
      await this.writes.finish(run.id, endEvent('failed', { code: 'RESUME_LIMIT', category: 'system', message: giveUp })).catch(reportWriteFailure)
      return
    }
    let prepared: Prepared
    try {
      const workflow = validatedWorkflow(run.definition, registry)
      prepared = { run, workflow, input: prepareInput(workflow, { ...this.deps, input: run.input }) }
    }
    catch (error) {
      const reason = `the run could not be started by a worker: ${(error as Error).message}`
      await this.writes.finish(run.id, endEvent('interrupted', { ...serializeError(error), message: reason })).catch(reportWriteFailure)
      return
    }
    // Taken just as this process began to stop: left to the takeover once the drain lets go of the lease.
    if (this.closed) return
    return { done: this.launch(prepared, run.status !== 'queued') }
  }

  /** Publishes to this process's followers of a run executing elsewhere the events stored and not yet read. */
  private catchUp(runId: string): Promise<unknown> {
    if (this.active.has(runId) || !this.writes.following(runId)) return Promise.resolve()
    this.heard(runId, Number.MAX_SAFE_INTEGER)
    return this.remote.get(runId) ?? Promise.resolve()
  }

  /**
   * An event another process committed: this process's subscribers of the run read it (and any
   * before it) from the store; those waiting only for its end hear of it without a read. A read
   * that fails is logged, and the next one starts from the last event read, so nothing is skipped.
   */
  private heard(runId: string, eventId: number, type?: string) {
    if (this.active.has(runId)) return
    if (!this.writes.following(runId)) {
      if (type === 'run.finished') this.writes.ended(runId)
      return
    }
    const previous = this.remote.get(runId) ?? Promise.resolve(eventId - 1)
    const next = previous.then(async (after) => {
      // Read already with an earlier notification's rows: events committed together are read once.
      if (after >= eventId) return after
      let last = after
      try {
        for (const row of await this.deps.store.runs.eventsAfter(runId, after)) {
          this.writes.publish(row)
          last = row.id
        }
      }
      catch (error) {
        console.error(`judgeflow: could not read the events of run ${runId}: ${(error as Error).message}`)
      }
      return last
    })
    this.remote.set(runId, next)
    void next.then(() => { if (this.remote.get(runId) === next && !this.writes.following(runId)) this.remote.delete(runId) })
  }

  /**
   * From now on, at every heartbeat, takes over the runs whose holder stopped renewing its lease
   * (another process that crashed, or hangs as a zombie); `report` hears of each takeover.
   */
  watchLeases(report: (outcome: ResumeOutcome) => void): void {
    this.watching = report
    this.leases.keepBeating(true)
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
    if (this.working) await this.deps.queue!.stopWorking()
    let timer: NodeJS.Timeout | undefined
    await Promise.race([
      Promise.all([...this.active.values()].map(a => a.done)),
      new Promise((resolve) => { timer = setTimeout(resolve, graceMs) }),
    ])
    clearTimeout(timer)
    // Hand the rest over: another process may take them at once, and this one writes no more to them.
    this.leases.stop()
    for (const runId of this.active.keys()) this.lose(runId, false)
    this.queue.length = 0
    await this.deps.store.leases.release(this.owner, this.now())
  }

  private async prepare(request: StartRun): Promise<Omit<Prepared, 'run'> & { run: RunRow }> {
    const workflow = this.validated.get(request.definition, request.workflowId, request.workflowVersion)
    const input = prepareInput(workflow, { ...this.deps, input: request.input })
    await this.leases.ensure()
    const run = await this.deps.store.runs.create({
      id: request.id, workflowId: request.workflowId, workflowVersion: request.workflowVersion, definition: request.definition,
      input, options: request.options ?? {}, status: 'queued', owner: this.owner,
    })
    return { run, workflow, input }
  }

  private pump() {
    while (!this.closed && this.queue.length && this.active.size < this.limit) void this.launch(this.queue.shift()!, false)
  }

  private launch(prepared: Prepared, resumed: boolean): Promise<RunResult | undefined> {
    const controller = new AbortController()
    const done = this.execute(prepared, resumed, controller.signal).finally(() => {
      this.active.delete(prepared.run.id)
      this.writes.lost.delete(prepared.run.id)
      this.pump()
      if (!this.active.size && !this.queue.length && !this.watching) this.leases.keepBeating(false)
    })
    this.active.set(prepared.run.id, { workflowId: prepared.run.workflowId, controller, done })
    return done
  }

  private async execute({ run, workflow, input }: Prepared, resumed: boolean, signal: AbortSignal): Promise<RunResult | undefined> {
    const { store, registry, providers, evaluation, limits } = this.deps
    const runId = run.id
    store.runs.markStarted(runId, this.owner).catch(reportWriteFailure)
    const options = (run.options ?? {}) as RunOptions
    try {
      return await new Execution(workflow, {
        registry, providers, evaluation, limits, input, signal,
        cache: options.cache, concurrency: options.concurrency, timeoutMs: options.timeout_ms,
        journal: resumed ? await store.runs.journal(runId) : undefined,
        onEvent: async (event) => { await (event.type === 'run.finished' ? this.writes.finish(runId, event) : this.writes.event(runId, event)) },
      }).run(resumed)
    }
    catch (error) {
      await this.writes.finish(runId, endEvent('failed', serializeError(error))).catch(reportWriteFailure)
      return undefined
    }
  }

  /** A run another process now holds: stop executing it here, without writing anything more. */
  private lose(runId: string, report = true) {
    const queued = this.queue.findIndex(item => item.run.id === runId)
    if (queued >= 0) this.queue.splice(queued, 1)
    const active = this.active.get(runId)
    if (!active) return
    if (report) console.error(`judgeflow: run ${runId} was taken over by another process after its lease here expired; this process stops executing it`)
    this.writes.lost.add(runId)
    active.controller.abort()
  }

  private async takeOver() {
    if (!this.watching || this.closed) return
    const outcome = await this.resumeUnfinished()
    if (outcome.resumed.length || outcome.interrupted.length || outcome.failed.length) this.watching(outcome)
  }
}
