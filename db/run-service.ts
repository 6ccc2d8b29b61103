import { hostname } from 'node:os'
import { Execution, JudgeflowError, prepareInput, serializeError, validatedWorkflow, type Providers, type RunOptions, type RunResult, type StepRegistry, type Workflow } from '../engine'
import type { Db } from './client'
import { GroupCommit } from './group-commit'
import { journalFor, storeEvent } from './run-recorder'
import { endEvent, ownerIsAlive, reportWriteFailure, withDeadline, type RunFinished } from './run-support'
import { ValidatedWorkflows } from './validated-workflows'
import { createRun, finishRun, listUnfinishedRuns, markRunStarted, type RunEventRow, type RunRow } from './repositories/runs'

export interface RunServiceDeps {
  db: Db
  registry: StepRegistry
  providers: Providers
  /** Runs executing at once; more wait in a queue. */
  maxConcurrentRuns?: number
  /** Runs waiting for a slot at most (JUDGEFLOW_MAX_QUEUED_RUNS, 1,000). */
  maxQueuedRuns?: number
  /** `host:pid` of this process. */
  owner?: string
}

export interface StartRun {
  definition: Record<string, unknown>
  workflowId?: string | null
  workflowVersion?: number | null
  input?: unknown
  options?: RunOptions
}

interface Prepared {
  run: RunRow
  workflow: Workflow
  input: Record<string, unknown>
}

type Listener = (event: RunEventRow) => void

/** How long a workflow's deletion waits for its cancelled runs to stop. */
export const STOP_WAIT_MS = 10_000

/**
 * Runs workflows durably: every event and step is committed before the executor moves on
 * (writes of concurrent runs share transactions), runs beyond the concurrency limit wait in
 * a queue, and runs left unfinished by a dead process are resumed from their committed steps.
 */
export class RunService {
  readonly owner: string
  private readonly active = new Map<string, { workflowId: string | null, controller: AbortController, done: Promise<RunResult | undefined> }>()
  private readonly queue: Prepared[] = []
  /** Starts under way (checked, not yet queued), so a workflow's deletion can wait for them. */
  private readonly starts = new Set<{ workflowId: string | null, settled: Promise<unknown> }>()
  /** Workflows being deleted (with how many deletions wait on each): no run of them starts. */
  private readonly closing = new Map<string, number>()
  private readonly listeners = new Map<string, Set<Listener>>()
  private readonly validated: ValidatedWorkflows
  private readonly writes: GroupCommit
  private readonly limit: number
  /** Runs waiting for a slot at most; beyond, a start is refused (HTTP 429) instead of piling up. */
  private readonly maxQueued: number
  private closed = false

  constructor(private readonly deps: RunServiceDeps) {
    this.owner = deps.owner ?? `${hostname()}:${process.pid}`
    this.limit = deps.maxConcurrentRuns ?? 16
    this.maxQueued = deps.maxQueuedRuns ?? (Number(process.env.JUDGEFLOW_MAX_QUEUED_RUNS) || 1000)
    this.writes = new GroupCommit(deps.db)
    this.validated = new ValidatedWorkflows(deps.registry)
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
    const queued = this.prepare(request).then((prepared) => {
      this.queue.push(prepared)
      this.pump()
      return prepared.run
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
    const prepared = await this.prepare(request)
    return { run: prepared.run, result: await this.launch(prepared, false) }
  }

  /** Cancels a queued or running run; false when it is not active here. */
  cancel(runId: string): boolean {
    return this.stop(runId) !== undefined
  }

  /**
   * Ends every queued or running run of a workflow, then calls `remove` (which deletes the
   * workflow with its runs) in the same turn, so no run of it writes after its rows are gone.
   * No run of the workflow starts meanwhile; starts under way are waited for, then cancelled
   * with the rest. Every subscriber gets each run's `run.finished`. Runs still going after
   * `waitMs` are returned and `remove` is not called.
   */
  async deleteWorkflowWith<T>(workflowId: string, remove: () => T, waitMs = STOP_WAIT_MS): Promise<{ removed: T } | { stillRunning: string[] }> {
    this.closing.set(workflowId, (this.closing.get(workflowId) ?? 0) + 1)
    try {
      await Promise.all([...this.starts].filter(s => s.workflowId === workflowId).map(s => s.settled))
      const ids = [...this.queue.map(item => item.run), ...[...this.active].map(([id, a]) => ({ id, workflowId: a.workflowId }))]
        .filter(run => run.workflowId === workflowId).map(run => run.id)
      await withDeadline(Promise.all(ids.map(id => this.stop(id))), waitMs)
      const stillRunning = ids.filter(id => this.active.has(id))
      return stillRunning.length ? { stillRunning } : { removed: remove() }
    }
    finally {
      const waiting = this.closing.get(workflowId)! - 1
      if (waiting) this.closing.set(workflowId, waiting)
      else this.closing.delete(workflowId)
    }
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

  isActive(runId: string): boolean {
    return this.active.has(runId) || this.queue.some(item => item.run.id === runId)
  }

  /**
   * Picks up runs left queued or running by a process that is gone: running ones resume from
   * their committed steps; one that cannot run any more is marked interrupted with the reason.
   */
  resumeUnfinished(): { resumed: string[], interrupted: string[] } {
    const resumed: string[] = []
    const interrupted: string[] = []
    for (const run of listUnfinishedRuns(this.deps.db)) {
      if (run.owner && run.owner !== this.owner && ownerIsAlive(run.owner)) continue
      if (this.isActive(run.id)) continue
      let prepared: Prepared
      try {
        const workflow = validatedWorkflow(run.definition, this.deps.registry)
        prepared = { run, workflow, input: prepareInput(workflow, { ...this.deps, input: run.input }) }
      }
      catch (error) {
        const reason = `the run could not be resumed after a restart: ${(error as Error).message}`
        this.finish(run.id, endEvent('interrupted', { ...serializeError(error), message: reason })).catch(reportWriteFailure)
        interrupted.push(run.id)
        continue
      }
      resumed.push(run.id)
      if (run.status === 'queued') this.queue.push(prepared)
      else void this.launch(prepared, true)
    }
    this.pump()
    return { resumed, interrupted }
  }

  /**
   * Stops starting runs and gives the active ones `graceMs` to finish. Whatever is still running
   * stays `running` in the database with its completed steps committed, and resumes at the next start.
   */
  async drain(graceMs = Number(process.env.JUDGEFLOW_SHUTDOWN_GRACE_MS ?? 10_000)): Promise<void> {
    this.closed = true
    await withDeadline(Promise.all([...this.active.values()].map(a => a.done)), graceMs)
  }

  private async prepare(request: StartRun): Promise<Prepared> {
    const workflow = this.validated.get(request)
    const input = prepareInput(workflow, { ...this.deps, input: request.input })
    const run = await this.writes.write(() => createRun(this.deps.db, {
      workflowId: request.workflowId, workflowVersion: request.workflowVersion, definition: request.definition,
      input, options: request.options ?? {}, status: 'queued', owner: this.owner,
    }))
    return { run, workflow, input }
  }

  private pump() {
    while (!this.closed && this.queue.length && this.active.size < this.limit) void this.launch(this.queue.shift()!, false)
  }

  private launch(prepared: Prepared, resumed: boolean): Promise<RunResult | undefined> {
    const controller = new AbortController()
    const done = this.execute(prepared, resumed, controller.signal).finally(() => {
      this.active.delete(prepared.run.id)
      this.pump()
    })
    this.active.set(prepared.run.id, { workflowId: prepared.run.workflowId, controller, done })
    return done
  }

  /** Cancels a queued or running run; resolves once its end is committed; undefined when it is not active here. */
  private stop(runId: string): Promise<unknown> | undefined {
    const queued = this.queue.findIndex(item => item.run.id === runId)
    if (queued >= 0) {
      this.queue.splice(queued, 1)
      return this.finish(runId, endEvent('cancelled', { code: 'CANCELLED', category: 'user', message: 'the run was cancelled before it started' })).catch(reportWriteFailure)
    }
    const active = this.active.get(runId)
    if (!active) return undefined
    active.controller.abort()
    return active.done
  }

  private async execute({ run, workflow, input }: Prepared, resumed: boolean, signal: AbortSignal): Promise<RunResult | undefined> {
    const { db, registry, providers } = this.deps
    const runId = run.id
    this.writes.write(() => markRunStarted(db, runId, this.owner)).catch(reportWriteFailure)
    const options = (run.options ?? {}) as RunOptions
    try {
      return await new Execution(workflow, {
        registry, providers, input, signal,
        cache: options.cache, concurrency: options.concurrency, timeoutMs: options.timeout_ms,
        journal: resumed ? journalFor(db, runId) : undefined,
        onEvent: event => (event.type === 'run.finished'
          ? this.finish(runId, event)
          : this.writes.write(() => storeEvent(db, runId, event)).then(row => this.publish(row))),
      }).run(resumed)
    }
    catch (error) {
      await this.finish(runId, endEvent('failed', serializeError(error))).catch(reportWriteFailure)
      return undefined
    }
  }

  /** Writes the run's end and its last event in one transaction, then tells the subscribers. */
  private async finish(runId: string, event: RunFinished): Promise<void> {
    const { db } = this.deps
    const { result } = event
    const row = await this.writes.write(() => {
      finishRun(db, runId, { status: result.status, verdict: result.verdict, output: result.output, error: result.error, durationMs: result.duration_ms })
      return storeEvent(db, runId, event)
    })
    this.publish(row)
  }

  private publish(event: RunEventRow) {
    for (const listener of this.listeners.get(event.runId) ?? []) listener(event)
  }
}
