import { hostname } from 'node:os'
import { Execution, JudgeflowError, prepareInput, serializeError, validatedWorkflow, type Providers, type RunEvent, type RunOptions, type RunResult, type StepRegistry, type Workflow } from '../engine'
import type { Db } from './client'
import { GroupCommit } from './group-commit'
import { journalFor, storeEvent } from './run-recorder'
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
type RunFinished = Extract<RunEvent, { type: 'run.finished' }>

const VALIDATED_CACHE_SIZE = 200

/**
 * Runs workflows durably: every event and step is committed before the executor moves on
 * (writes of concurrent runs share transactions), runs beyond the concurrency limit wait in
 * a queue, and runs left unfinished by a dead process are resumed from their committed steps.
 */
export class RunService {
  readonly owner: string
  private readonly active = new Map<string, { controller: AbortController, done: Promise<RunResult | undefined> }>()
  private readonly queue: Prepared[] = []
  private readonly listeners = new Map<string, Set<Listener>>()
  /** Workflow versions never change, so each is validated once. */
  private readonly validated = new Map<string, Workflow>()
  private readonly writes: GroupCommit
  private readonly limit: number
  /** Runs waiting for a slot at most; beyond, a start is refused (HTTP 429) instead of piling up. */
  private readonly maxQueued: number
  private starting = 0
  private closed = false

  constructor(private readonly deps: RunServiceDeps) {
    this.owner = deps.owner ?? `${hostname()}:${process.pid}`
    this.limit = deps.maxConcurrentRuns ?? 16
    this.maxQueued = deps.maxQueuedRuns ?? (Number(process.env.JUDGEFLOW_MAX_QUEUED_RUNS) || 1000)
    this.writes = new GroupCommit(deps.db)
  }

  /** Checks the definition, input and keys (throwing a user error), stores the run and schedules it. */
  async start(request: StartRun): Promise<RunRow> {
    const waiting = this.queue.length + this.starting
    if (waiting >= this.maxQueued) {
      throw new JudgeflowError('TOO_MANY_RUNS', `${waiting} runs are already waiting for one of the ${this.limit} run slots (JUDGEFLOW_MAX_QUEUED_RUNS); try again when some have finished.`)
    }
    // Counted from here, so starts arriving together cannot all pass the check before any is queued.
    this.starting++
    let prepared: Prepared
    try {
      prepared = await this.prepare(request)
    }
    finally {
      this.starting--
    }
    this.queue.push(prepared)
    this.pump()
    return prepared.run
  }

  /** Runs a stored run to its end in this process (the CLI's path). */
  async runToEnd(request: StartRun): Promise<{ run: RunRow, result: RunResult | undefined }> {
    const prepared = await this.prepare(request)
    return { run: prepared.run, result: await this.launch(prepared, false) }
  }

  /** Cancels a queued or running run; false when it is not active here. */
  cancel(runId: string): boolean {
    const queued = this.queue.findIndex(item => item.run.id === runId)
    if (queued >= 0) {
      this.queue.splice(queued, 1)
      this.finish(runId, endEvent('cancelled', { code: 'CANCELLED', category: 'user', message: 'the run was cancelled before it started' })).catch(reportWriteFailure)
      return true
    }
    const active = this.active.get(runId)
    if (!active) return false
    active.controller.abort()
    return true
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
    let timer: NodeJS.Timeout | undefined
    await Promise.race([
      Promise.all([...this.active.values()].map(a => a.done)),
      new Promise((resolve) => { timer = setTimeout(resolve, graceMs) }),
    ])
    clearTimeout(timer)
  }

  private async prepare(request: StartRun): Promise<Prepared> {
    const workflow = this.validate(request)
    const input = prepareInput(workflow, { ...this.deps, input: request.input })
    const run = await this.writes.write(() => createRun(this.deps.db, {
      workflowId: request.workflowId, workflowVersion: request.workflowVersion, definition: request.definition,
      input, options: request.options ?? {}, status: 'queued', owner: this.owner,
    }))
    return { run, workflow, input }
  }

  private validate(request: StartRun): Workflow {
    if (!request.workflowId || !request.workflowVersion) return validatedWorkflow(request.definition, this.deps.registry)
    const key = `${request.workflowId}@${request.workflowVersion}`
    let workflow = this.validated.get(key)
    if (!workflow) {
      workflow = validatedWorkflow(request.definition, this.deps.registry)
      if (this.validated.size >= VALIDATED_CACHE_SIZE) this.validated.delete(this.validated.keys().next().value!)
      this.validated.set(key, workflow)
    }
    return workflow
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
    this.active.set(prepared.run.id, { controller, done })
    return done
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

/** A write that failed outside any caller's await: logged, never an unhandled rejection. */
function reportWriteFailure(error: unknown): void {
  console.error(`judgeflow: a database write failed: ${(error as Error).message}`)
}

function endEvent(status: RunResult['status'], error: RunResult['error']): RunFinished {
  return { type: 'run.finished', at: Date.now(), result: { status, verdict: null, output: null, error, steps: {}, duration_ms: 0 } }
}

function ownerIsAlive(owner: string): boolean {
  const [host, pid] = owner.split(':')
  if (host !== hostname()) return true
  try {
    process.kill(Number(pid), 0)
    return true
  }
  catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}
