import { Execution, serializeError, type RunOptions, type RunResult, type Workflow } from '../../engine'
import type { RunRow } from '../rows'
import type { RunFinished } from '../store'
import type { RunServiceDeps } from './types'
import { endEvent, reportWriteFailure, type RunWriter } from './run-writer'

/**
 * A run ready to execute: what its execution needs of the stored row (not its definition: the
 * validated workflow stands for it, shared by the runs of one version), so a long queue of runs
 * waiting for a slot holds little each.
 */
export interface Prepared {
  run: Pick<RunRow, 'id' | 'workflowId' | 'status' | 'options'>
  workflow: Workflow
  input: Record<string, unknown>
}

export const preparedRun = ({ id, workflowId, status, options }: RunRow): Prepared['run'] => ({ id, workflowId, status, options })

export const CANCELLED_BEFORE_START = { code: 'CANCELLED', category: 'user', message: 'the run was cancelled before it started' } as const

export interface LocalRunsDeps extends Pick<RunServiceDeps, 'store' | 'registry' | 'providers' | 'evaluation' | 'limits'> {
  owner: string
  writes: RunWriter
  /** Runs executing at once. */
  limit: number
  /** Whether this process is stopping: no waiting run starts any more. */
  closed: () => boolean
  /** Told whenever a run ends and no other is executing or waiting here. */
  idle: () => void
}

/**
 * The runs this process executes: `limit` at a time, the rest waiting their turn in order. Every
 * event is written through the run writer, which commits it before the executor moves on.
 */
export class LocalRuns {
  private readonly active = new Map<string, { workflowId: string | null, controller: AbortController, done: Promise<RunResult | undefined> }>()
  private readonly waiting: Prepared[] = []
  /**
   * Runs held here that end without executing (stopped while waiting, or given up on), until their
   * end is committed: the row still shows them unfinished under this process's name meanwhile, so
   * a cancel of one must find it here rather than take this process for another holder.
   */
  private readonly ending = new Map<string, Promise<unknown>>()

  constructor(private readonly deps: LocalRunsDeps) {}

  /** How many runs wait for a slot. */
  get waitingCount(): number {
    return this.waiting.length
  }

  /** The runs held here: executing, waiting, or having their end written. */
  ids(): string[] {
    return [...this.active.keys(), ...this.waiting.map(item => item.run.id), ...this.ending.keys()]
  }

  /** Whether the run executes, waits or is being ended here. */
  has(runId: string): boolean {
    return this.active.has(runId) || this.ending.has(runId) || this.waiting.some(item => item.run.id === runId)
  }

  /** Whether the run executes here now (its last events may not be committed yet). */
  executing(runId: string): boolean {
    return this.active.has(runId)
  }

  /** The workflow's runs executing or waiting here. */
  ofWorkflow(workflowId: string): string[] {
    return [...this.waiting.map(item => item.run), ...[...this.active].map(([id, a]) => ({ id, workflowId: a.workflowId }))]
      .filter(run => run.workflowId === workflowId).map(run => run.id)
  }

  /** Queues the run for the next free slot. */
  wait(prepared: Prepared): void {
    this.waiting.push(prepared)
    this.pump()
  }

  /**
   * Executes the run now, whatever the limit; resolves with its result once it has ended.
   * `started`: the run is already marked started (its claim did it).
   */
  launch(prepared: Prepared, resumed: boolean, started = false): Promise<RunResult | undefined> {
    const controller = new AbortController()
    const done = this.execute(prepared, resumed, started, controller.signal).finally(() => {
      this.active.delete(prepared.run.id)
      this.deps.writes.lost.delete(prepared.run.id)
      this.deps.writes.drop(prepared.run.id)
      this.pump()
      if (!this.active.size && !this.waiting.length) this.deps.idle()
    })
    this.active.set(prepared.run.id, { workflowId: prepared.run.workflowId, controller, done })
    return done
  }

  /**
   * Stops a waiting or executing run: what to wait for, or undefined when it is not here. A run
   * already being ended here (a cancel before this one, or given up on) has that end to wait for.
   */
  stop(runId: string): Promise<unknown> | undefined {
    const ending = this.ending.get(runId)
    if (ending) return ending
    const waiting = this.waiting.findIndex(item => item.run.id === runId)
    if (waiting >= 0) {
      this.waiting.splice(waiting, 1)
      return this.end(runId, endEvent('cancelled', CANCELLED_BEFORE_START))
    }
    const active = this.active.get(runId)
    if (!active) return undefined
    active.controller.abort()
    return active.done
  }

  /** Ends a run this process holds without executing it (a write that fails is reported, not thrown); held here until the end is committed. */
  end(runId: string, event: RunFinished): Promise<unknown> {
    const ending: Promise<unknown> = this.deps.writes.finish(runId, event).catch(reportWriteFailure).finally(() => {
      if (this.ending.get(runId) === ending) this.ending.delete(runId)
    })
    this.ending.set(runId, ending)
    return ending
  }

  /** A run another process now holds: stop executing it here, without writing anything more. */
  lose(runId: string, report = true): void {
    const waiting = this.waiting.findIndex(item => item.run.id === runId)
    if (waiting >= 0) this.waiting.splice(waiting, 1)
    const active = this.active.get(runId)
    if (!active) return
    if (report) console.error(`judgeflow: run ${runId} was taken over by another process after its lease here expired; this process stops executing it`)
    this.deps.writes.lost.add(runId)
    active.controller.abort()
  }

  /** Gives the executing runs `graceMs` to finish. */
  async settle(graceMs: number): Promise<void> {
    let timer: NodeJS.Timeout | undefined
    await Promise.race([
      Promise.all([...this.active.values()].map(a => a.done)),
      new Promise((resolve) => { timer = setTimeout(resolve, graceMs) }),
    ])
    clearTimeout(timer)
  }

  /** Lets go of every run here: those executing get no more writes (they stay `running`, their completed steps committed); those waiting are forgotten. */
  letGo(): void {
    for (const runId of this.active.keys()) this.lose(runId, false)
    this.waiting.length = 0
  }

  private pump() {
    while (!this.deps.closed() && this.waiting.length && this.active.size < this.deps.limit) void this.launch(this.waiting.shift()!, false)
  }

  private async execute({ run, workflow, input }: Prepared, resumed: boolean, started: boolean, signal: AbortSignal): Promise<RunResult | undefined> {
    const { store, registry, providers, evaluation, limits, writes, owner } = this.deps
    const runId = run.id
    if (!started) store.runs.markStarted(runId, owner).catch(reportWriteFailure)
    const options = (run.options ?? {}) as RunOptions
    try {
      return await new Execution(workflow, {
        registry, providers, evaluation, limits, input, signal,
        cache: options.cache, concurrency: options.concurrency, timeoutMs: options.timeout_ms,
        journal: resumed ? await store.runs.journal(runId) : undefined,
        onEvent: async (event) => { await (event.type === 'run.finished' ? writes.finish(runId, event) : writes.event(runId, event)) },
        commit: () => writes.commit(runId),
      }).run(resumed)
    }
    catch (error) {
      await writes.finish(runId, endEvent('failed', serializeError(error))).catch(reportWriteFailure)
      return undefined
    }
  }
}
