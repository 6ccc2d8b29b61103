import { Execution, serializeError, type RunOptions, type RunResult, type Workflow } from '../../engine'
import type { RunRow } from '../rows'
import type { RunFinished } from '../store'
import { LeaseKeeper } from './leases'
import type { RunServiceDeps } from './types'
import { endEvent, reportWriteFailure, RunWriter } from './run-writer'

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
  /** How long this process's lease holds without a heartbeat. */
  leaseMs: number
  now: () => number
  /** Runs executing at once. */
  limit: number
  /** Whether this process is stopping: no waiting run starts any more. */
  closed: () => boolean
}

/** How a run taken on here executes: resumed from its committed steps, or already marked started by its claim. */
export interface Launch {
  resumed: boolean
  started: boolean
}

const FRESH: Launch = { resumed: false, started: false }

interface Waiting extends Launch {
  prepared: Prepared
  /** Settles the wait: with the run's execution once launched, undefined when it leaves the queue without executing. */
  settle: (done: Promise<RunResult | undefined> | undefined) => void
}

/**
 * The runs this process holds: executing, `limit` at a time, the rest waiting their turn in order.
 * It keeps the lease they are held by (`leases`: renewed while a run is held here, reporting those
 * another process took over) and writes their events through `writes`, which commits each before
 * the executor moves on and stops writing to a run the store says is no longer held here.
 */
export class LocalRuns {
  readonly leases: LeaseKeeper
  readonly writes: RunWriter
  private readonly active = new Map<string, { workflowId: string | null, controller: AbortController, done: Promise<RunResult | undefined> }>()
  private readonly waiting: Waiting[] = []
  /**
   * The waiting runs' ids, each with how many times it waits: whether a run waits here is asked for
   * every job a process's own queue hands over, so it is a lookup, never a scan of the waiting list.
   */
  private readonly waitingIds = new Map<string, number>()
  /**
   * Runs held here that end without executing (stopped while waiting, or given up on), until their
   * end is committed: the row still shows them unfinished under this process's name meanwhile, so
   * a cancel of one must find it here rather than take this process for another holder.
   */
  private readonly ending = new Map<string, Promise<unknown>>()

  constructor(private readonly deps: LocalRunsDeps) {
    const { store, owner, leaseMs, now } = deps
    const leases = this.leases = new LeaseKeeper(store.leases, { owner, leaseMs, now, held: () => this.ids(), lost: runId => this.lose(runId) })
    this.writes = new RunWriter(store.runs, owner, () => leases.current(), runId => this.lose(runId))
  }

  /** How many runs wait for a slot. */
  get waitingCount(): number {
    return this.waiting.length
  }

  /** The runs held here: executing, waiting, or having their end written. */
  ids(): string[] {
    return [...this.active.keys(), ...this.waiting.map(item => item.prepared.run.id), ...this.ending.keys()]
  }

  /** Whether the run executes, waits or is being ended here. */
  has(runId: string): boolean {
    return this.active.has(runId) || this.ending.has(runId) || this.waitingIds.has(runId)
  }

  /** Whether the run executes here now (its last events may not be committed yet). */
  executing(runId: string): boolean {
    return this.active.has(runId)
  }

  /** The workflow's runs executing or waiting here. */
  ofWorkflow(workflowId: string): string[] {
    return [...this.waiting.map(item => item.prepared.run), ...[...this.active].map(([id, a]) => ({ id, workflowId: a.workflowId }))]
      .filter(run => run.workflowId === workflowId).map(run => run.id)
  }

  /**
   * Queues the run for the next free slot; resolves once it has ended (with its result), or left
   * the queue without executing (stopped, lost or let go: undefined).
   */
  wait(prepared: Prepared, how: Launch = FRESH): Promise<RunResult | undefined> {
    return new Promise((settle) => {
      this.waiting.push({ prepared, ...how, settle })
      this.waitingIds.set(prepared.run.id, (this.waitingIds.get(prepared.run.id) ?? 0) + 1)
      this.leases.keepBeating(true)
      this.pump()
    })
  }

  /**
   * Executes the run now, whatever the limit; resolves with its result once it has ended.
   * `started`: the run is already marked started (its claim did it).
   */
  launch(prepared: Prepared, resumed: boolean, started = false): Promise<RunResult | undefined> {
    const controller = new AbortController()
    this.leases.keepBeating(true)
    const done = this.execute(prepared, resumed, started, controller.signal).finally(() => {
      this.active.delete(prepared.run.id)
      this.writes.lost.delete(prepared.run.id)
      this.writes.drop(prepared.run.id)
      this.pump()
      if (!this.active.size && !this.waiting.length) this.leases.rest()
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
    const waiting = this.waitingIndex(runId)
    if (waiting >= 0) {
      const ending = this.end(runId, endEvent('cancelled', CANCELLED_BEFORE_START))
      this.takeWaiting(waiting).settle(undefined)
      return ending
    }
    const active = this.active.get(runId)
    if (!active) return undefined
    active.controller.abort()
    return active.done
  }

  /** Ends a run this process holds without executing it (a write that fails is reported, not thrown); held here until the end is committed. */
  end(runId: string, event: RunFinished): Promise<unknown> {
    const ending: Promise<unknown> = this.writes.finish(runId, event).catch(reportWriteFailure).finally(() => {
      if (this.ending.get(runId) === ending) this.ending.delete(runId)
    })
    this.ending.set(runId, ending)
    return ending
  }

  /** A run another process now holds: stop executing it here, without writing anything more. */
  lose(runId: string, report = true): void {
    const waiting = this.waitingIndex(runId)
    if (waiting >= 0) this.takeWaiting(waiting).settle(undefined)
    const active = this.active.get(runId)
    if (!active) return
    if (report) console.error(`judgeflow: run ${runId} was taken over by another process after its lease here expired; this process stops executing it`)
    this.writes.lost.add(runId)
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
    this.waitingIds.clear()
    for (const item of this.waiting.splice(0)) item.settle(undefined)
  }

  /** Where the run waits in the list, or -1 (scanned only when it waits here). */
  private waitingIndex(runId: string): number {
    return this.waitingIds.has(runId) ? this.waiting.findIndex(item => item.prepared.run.id === runId) : -1
  }

  /** Takes the waiting run at `index` off the list. */
  private takeWaiting(index: number): Waiting {
    const [item] = this.waiting.splice(index, 1)
    const id = item!.prepared.run.id
    const left = (this.waitingIds.get(id) ?? 1) - 1
    if (left > 0) this.waitingIds.set(id, left)
    else this.waitingIds.delete(id)
    return item!
  }

  private pump() {
    while (!this.deps.closed() && this.waiting.length && this.active.size < this.deps.limit) {
      const { prepared, resumed, started, settle } = this.takeWaiting(0)
      settle(this.launch(prepared, resumed, started))
    }
  }

  private async execute({ run, workflow, input }: Prepared, resumed: boolean, started: boolean, signal: AbortSignal): Promise<RunResult | undefined> {
    const { store, registry, providers, evaluation, limits, owner } = this.deps
    const { writes } = this
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
