import { JudgeflowError, prepareInput, serializeError } from '../../engine'
import { newRunRow, type NewRun, type ResumeDecision, type ResumeProgress, type RunRow } from '../rows'
import { DEFAULT_MAX_RESUMES, leaseIsFree, resumeDecision, type LeaseKeeper } from './leases'
import { CANCELLED_BEFORE_START, preparedRun, type LocalRuns, type Prepared } from './local-runs'
import type { RunJob, RunQueue } from './run-queue'
import { endEvent } from './run-writer'
import type { ResumeOutcome, RunServiceDeps, StartRun } from './types'
import type { ValidatedWorkflows } from './validated-workflows'

export interface DispatchDeps extends Pick<RunServiceDeps, 'store' | 'registry' | 'providers' | 'maxResumes'> {
  owner: string
  queue: RunQueue
  local: LocalRuns
  leases: LeaseKeeper
  validated: ValidatedWorkflows
  /** Runs executing at once here (named in a refusal). */
  limit: number
  /** Runs waiting for a slot at most; beyond, a start is refused (HTTP 429) instead of piling up. */
  maxQueued: number
  now: () => number
  /** Whether this process is stopping. */
  closed: () => boolean
}

/** A start with `ifCurrent` whose workflow version is no longer the current one: nothing was stored. */
export class NotCurrent extends Error {
  constructor() {
    super('the workflow version is no longer the current one')
  }
}

/** A job whose run this process is claiming: a cancel arriving meanwhile is kept, and the run ends cancelled once claimed. */
export interface Claim {
  cancelled: boolean
  done: Promise<void>
}

/**
 * Where a run executes: a started run is stored with its job in the run queue (this process's own,
 * or the one shared by the workers); whichever process takes the job claims its run, as it claims
 * one left by a process that is gone, before it executes it here, so none runs twice.
 */
export class Dispatch {
  /** Starts under way (checked, not yet queued), so a workflow's deletion can wait for them. */
  private readonly starts = new Set<{ workflowId: string | null, settled: Promise<unknown> }>()
  private readonly claiming = new Map<string, Claim>()
  /** Workflows being deleted (with how many deletions wait on each): no run of them starts. */
  private readonly closing = new Map<string, number>()
  /** Whether this process, checked against both stores inside their claim, resumes a run it takes over or gives it up. */
  private readonly resumeRule: (run: ResumeProgress, lastStepAt: number | null) => ResumeDecision

  constructor(private readonly deps: DispatchDeps) {
    this.resumeRule = (run, lastStepAt) => resumeDecision(run, lastStepAt, deps.maxResumes ?? DEFAULT_MAX_RESUMES)
  }

  /** Throws TOO_MANY_RUNS when the waiting list is full: a start would be refused whatever it asks. */
  refuseWhenFull(): void {
    const { local, limit, maxQueued } = this.deps
    // Every run taken on here and not yet executing: starting, being claimed, or waiting for a slot.
    const waiting = local.waitingCount + this.starts.size + this.claiming.size
    if (waiting >= maxQueued) {
      throw new JudgeflowError('TOO_MANY_RUNS', `${waiting} runs are already waiting for one of the ${limit} run slots (JUDGEFLOW_MAX_QUEUED_RUNS); try again when some have finished.`)
    }
  }

  /** Checks the definition, input and keys (throwing a user error), stores the run and schedules it. */
  async start(request: StartRun): Promise<RunRow> {
    const { queue, owner } = this.deps
    this.refuseWhenFull()
    if (request.workflowId && this.closing.has(request.workflowId)) {
      throw new JudgeflowError('CONFLICT', `workflow "${request.workflowId}" is being deleted: no new run of it can start.`)
    }
    const queued = this.checked(request).then(async ({ run }) => {
      const row = newRunRow(run)
      if (!await queue.submit(row, { runId: row.id, from: owner }, { ifCurrent: request.ifCurrent })) throw new NotCurrent()
      return row
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

  /** Stores the run and executes it to its end in this process (the CLI's path). */
  async runToEnd(request: StartRun) {
    const { run, workflow, input } = await this.prepare(request)
    return { run, result: await this.deps.local.launch({ run: preparedRun(run), workflow, input }, false) }
  }

  /**
   * Refuses the workflow's starts from now until `reopen` is called (its deletion), and resolves
   * once those under way have been stored and queued, or refused.
   */
  async closeWorkflow(workflowId: string): Promise<{ reopen: () => void }> {
    this.closing.set(workflowId, (this.closing.get(workflowId) ?? 0) + 1)
    const reopen = () => {
      const waiting = this.closing.get(workflowId)! - 1
      if (waiting) this.closing.set(workflowId, waiting)
      else this.closing.delete(workflowId)
    }
    await Promise.all([...this.starts].filter(s => s.workflowId === workflowId).map(s => s.settled))
    return { reopen }
  }

  /** The job whose run this process is claiming now, if any. */
  claimOf(runId: string): Claim | undefined {
    return this.claiming.get(runId)
  }

  /**
   * Takes over runs left queued or running by a process that is gone (their lease expired, or
   * their holder no longer exists): running ones resume from their committed steps; one that
   * cannot run any more is marked interrupted, and one that keeps failing to resume is marked
   * failed, each with the reason.
   */
  async resumeUnfinished(): Promise<ResumeOutcome> {
    const outcome: ResumeOutcome = { resumed: [], interrupted: [], failed: [] }
    if (this.deps.closed()) return outcome
    const { store, leases, local, owner } = this.deps
    await leases.ensure()
    const now = this.deps.now()
    const claimed = await store.leases.claimOrphans({
      owner, now, lease: leases.next(), isFree: lease => leaseIsFree(lease, owner, now),
      resume: this.resumeRule, skip: runId => local.has(runId) || this.claiming.has(runId),
    })
    for (const { run, giveUp } of claimed) {
      if (giveUp) {
        void this.end(run.id, 'failed', { code: 'RESUME_LIMIT', category: 'system', message: giveUp })
        outcome.failed.push(run.id)
        continue
      }
      const prepared = this.prepareStored(run, 'the run could not be resumed after a restart')
      if ('ending' in prepared) {
        outcome.interrupted.push(run.id)
        continue
      }
      outcome.resumed.push(run.id)
      if (run.status === 'queued') void local.wait(prepared)
      else void local.launch(prepared, true)
    }
    return outcome
  }

  /**
   * Executes runs from the queue, `concurrency` at a time, until the queue stops working. A job's
   * run is claimed first: one another process holds or that has ended is left alone, so a job taken
   * twice runs nothing twice. The run then takes its turn for a slot here (`limit`).
   */
  async work(concurrency: number): Promise<void> {
    if (concurrency > 0) await this.deps.queue.work(concurrency, job => this.executeJob(job))
  }

  private async executeJob(job: RunJob): Promise<void> {
    if (this.deps.closed() || this.deps.local.has(job.runId) || this.claiming.has(job.runId)) return
    const claim: Claim = { cancelled: false, done: Promise.resolve() }
    this.claiming.set(job.runId, claim)
    const claiming = this.claimJob(job, claim).finally(() => this.claiming.delete(job.runId))
    claim.done = claiming.then(() => {}, () => {})
    const taken = await claiming
    await taken?.done
  }

  /** Claims the job's run; once it is taken on here, its execution to wait for. */
  private async claimJob(job: RunJob, claim: Claim): Promise<{ done: Promise<unknown> } | undefined> {
    const { queue, leases, owner } = this.deps
    await leases.ensure()
    const now = this.deps.now()
    const takeover = await queue.claim(job, {
      owner, now, lease: leases.next(), from: job.from,
      isFree: lease => leaseIsFree(lease, owner, now), resume: this.resumeRule,
    })
    if (!takeover) return
    const { run, giveUp, started } = takeover
    if (claim.cancelled) return void await this.end(run.id, 'cancelled', CANCELLED_BEFORE_START)
    if (giveUp) return void await this.end(run.id, 'failed', { code: 'RESUME_LIMIT', category: 'system', message: giveUp })
    const prepared = this.prepareStored(run, 'the run could not be started by a worker')
    if ('ending' in prepared) return void await prepared.ending
    // Taken just as this process began to stop: left to the takeover once the drain lets go of the lease.
    if (this.deps.closed()) return
    return { done: this.deps.local.wait(prepared, { resumed: !started && run.status !== 'queued', started: started ?? false }) }
  }

  /** Checks a stored run's definition and input again; one that no longer passes is ended interrupted, saying `whenFails` and why. */
  private prepareStored(run: RunRow, whenFails: string): Prepared | { ending: Promise<unknown> } {
    try {
      // A version never changes: a worker validates each once, not once per run.
      const workflow = this.deps.validated.get(run.definition, run.workflowId, run.workflowVersion)
      return { run: preparedRun(run), workflow, input: prepareInput(workflow, { ...this.deps, input: run.input }) }
    }
    catch (error) {
      return { ending: this.end(run.id, 'interrupted', { ...serializeError(error), message: `${whenFails}: ${(error as Error).message}` }) }
    }
  }

  /** Ends a run this process has just claimed (a write that fails is reported, not thrown); a cancel meanwhile waits for that end. */
  private end(runId: string, status: Parameters<typeof endEvent>[0], error: Parameters<typeof endEvent>[1]): Promise<unknown> {
    return this.deps.local.end(runId, endEvent(status, error))
  }

  /** Checks the definition and input (throwing a user error): the new run, held by this process's lease. */
  private async checked(request: StartRun) {
    const { validated, leases, owner } = this.deps
    const workflow = validated.get(request.definition, request.workflowId, request.workflowVersion)
    const input = prepareInput(workflow, { ...this.deps, input: request.input })
    await leases.ensure()
    const run: NewRun = {
      id: request.id, workflowId: request.workflowId, workflowVersion: request.workflowVersion, definition: request.definition,
      input, options: request.options ?? {}, status: 'queued', owner,
    }
    return { run, workflow, input }
  }

  /** Checks the request and stores its run, to execute here. */
  private async prepare(request: StartRun) {
    const { run, workflow, input } = await this.checked(request)
    return { run: await this.deps.store.runs.create(run), workflow, input }
  }
}
