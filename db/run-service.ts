import { hostname } from 'node:os'
import { prepareRun, runWorkflow, serializeError, type Providers, type RunEvent, type RunOptions, type RunResult, type StepRegistry } from '../engine'
import type { Db } from './client'
import { createRunRecorder, journalFor } from './run-recorder'
import { createRun, finishRun, getRun, listUnfinishedRuns, markRunStarted, type RunEventRow, type RunRow } from './repositories/runs'

export interface RunServiceDeps {
  db: Db
  registry: StepRegistry
  providers: Providers
  /** Runs executing at once; more wait in a queue. */
  maxConcurrentRuns?: number
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

type Listener = (event: RunEventRow) => void

/**
 * Runs workflows durably: every event and step is committed as it happens, runs beyond the
 * concurrency limit wait in a queue, and runs left unfinished by a dead process are resumed.
 */
export class RunService {
  readonly owner: string
  private readonly active = new Map<string, { controller: AbortController, done: Promise<RunResult | undefined> }>()
  private readonly queue: string[] = []
  private readonly listeners = new Map<string, Set<Listener>>()
  private readonly limit: number
  private closed = false

  constructor(private readonly deps: RunServiceDeps) {
    this.owner = deps.owner ?? `${hostname()}:${process.pid}`
    this.limit = deps.maxConcurrentRuns ?? 16
  }

  /** Checks the definition, input and keys (throwing a user error), stores the run and schedules it. */
  start(request: StartRun): RunRow {
    prepareRun(request.definition, { ...this.deps, input: request.input })
    const run = createRun(this.deps.db, {
      workflowId: request.workflowId, workflowVersion: request.workflowVersion, definition: request.definition,
      input: request.input ?? {}, options: request.options ?? {}, status: 'queued', owner: this.owner,
    })
    this.queue.push(run.id)
    this.pump()
    return run
  }

  /** Runs a stored run to its end in this process (the CLI's path). */
  async runToEnd(request: StartRun): Promise<{ run: RunRow, result: RunResult | undefined }> {
    prepareRun(request.definition, { ...this.deps, input: request.input })
    const run = createRun(this.deps.db, { ...request, input: request.input ?? {}, options: request.options ?? {}, status: 'queued', owner: this.owner })
    const result = await this.launch(run, false)
    return { run, result }
  }

  /** Cancels a queued or running run; false when it is not active here. */
  cancel(runId: string): boolean {
    const queued = this.queue.indexOf(runId)
    if (queued >= 0) {
      this.queue.splice(queued, 1)
      const result: RunResult = { status: 'cancelled', verdict: null, output: null, error: { code: 'CANCELLED', category: 'user', message: 'the run was cancelled before it started' }, steps: {}, duration_ms: 0 }
      this.finish(runId, { type: 'run.finished', at: Date.now(), result })
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
    return this.active.has(runId) || this.queue.includes(runId)
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
      try {
        prepareRun(run.definition, { ...this.deps, input: run.input })
      }
      catch (error) {
        const reason = `the run could not be resumed after a restart: ${(error as Error).message}`
        this.finish(run.id, { type: 'run.finished', at: Date.now(), result: { status: 'interrupted', verdict: null, output: null, error: { ...serializeError(error), message: reason }, steps: {}, duration_ms: 0 } })
        interrupted.push(run.id)
        continue
      }
      resumed.push(run.id)
      if (run.status === 'queued') this.queue.push(run.id)
      else void this.launch(run, true)
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

  private pump() {
    while (!this.closed && this.queue.length && this.active.size < this.limit) {
      const run = getRun(this.deps.db, this.queue.shift()!)
      if (run) void this.launch(run, false)
    }
  }

  private launch(run: RunRow, resumed: boolean): Promise<RunResult | undefined> {
    const controller = new AbortController()
    const done = this.execute(run, resumed, controller.signal).finally(() => {
      this.active.delete(run.id)
      this.pump()
    })
    this.active.set(run.id, { controller, done })
    return done
  }

  private async execute(run: RunRow, resumed: boolean, signal: AbortSignal): Promise<RunResult | undefined> {
    const { db } = this.deps
    markRunStarted(db, run.id, this.owner)
    const recorder = createRunRecorder(db, run.id)
    const options = (run.options ?? {}) as RunOptions
    try {
      return await runWorkflow(run.definition, {
        registry: this.deps.registry, providers: this.deps.providers, input: run.input, signal, resumed,
        cache: options.cache, concurrency: options.concurrency, timeoutMs: options.timeout_ms,
        journal: resumed ? journalFor(db, run.id) : undefined,
        onEvent: (event) => {
          if (event.type === 'run.finished') this.finish(run.id, event)
          else this.publish(recorder.record(event))
        },
      })
    }
    catch (error) {
      this.finish(run.id, { type: 'run.finished', at: Date.now(), result: { status: 'failed', verdict: null, output: null, error: serializeError(error), steps: {}, duration_ms: 0 } })
      return undefined
    }
  }

  /** Writes the run's end and its last event in one transaction, then tells the subscribers. */
  private finish(runId: string, event: Extract<RunEvent, { type: 'run.finished' }>) {
    const { db } = this.deps
    const result = event.result
    const stored = db.transaction(() => {
      finishRun(db, runId, { status: result.status, verdict: result.verdict, output: result.output, error: result.error, durationMs: result.duration_ms })
      return createRunRecorder(db, runId).record(event)
    })
    this.publish(stored)
  }

  private publish(event: RunEventRow) {
    for (const listener of this.listeners.get(event.runId) ?? []) listener(event)
  }
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
