import { setMaxListeners } from 'node:events'
import { JudgeflowError, serializeError, type SerializedError } from '../errors'
import type { Workflow, WorkflowNode } from '../schema/workflow'
import { nodeConfigSchema, type StepDefinition, type StepOutcome } from '../steps/types'
import type { StepRegistry } from '../steps/registry'
import type { Providers } from '../providers/types'
import type { EvaluationServices } from '../evaluator/index'
import { buildGraph, downstreamOf, type Graph } from '../graph/topology'
import { configWithGraphDefaults } from '../graph/graph-defaults'
import type { ReferenceScope } from './references'
import { DEFAULT_STORAGE_LIMITS, jsonSize, renderWithinLimits, type StorageLimits } from './size-limits'
import { jsonShapeProblem, MAX_VALUE_DEPTH } from '../text/safe-json'
import { pinnedOutcome } from './pinned'
import { boundedSize, EVENT_VALUE_LIMIT, jsonPreview, PREVIEW_CHARS } from './truncated'
import { summarizeRun, type NodeProgress } from './summary'
import type { Journal, RunEvent, RunResult, StepRecord } from './types'

export interface ExecuteOptions {
  registry: StepRegistry
  providers: Providers
  input?: unknown
  signal?: AbortSignal
  /** Independent steps running at once (workflow settings, then this, then 4). */
  concurrency?: number
  /** Per-step timeout unless the node sets `timeout_ms` (workflow settings, then this, then 5 min). */
  timeoutMs?: number
  /** `false` bypasses the LLM response cache for the whole run. */
  cache?: boolean
  /** Receives every event; a returned promise is awaited, so a step is committed before its dependents start (unless `commit` says when). */
  onEvent?: (event: RunEvent) => void | Promise<void>
  /**
   * Resolves once the events received so far are durable: a step's work waits for it, so a
   * completed step's output is committed before the next step does anything (an `onEvent` that
   * writes events together later says so here).
   */
  commit?: () => Promise<void>
  /** Committed records of an interrupted execution: reused instead of running those steps again. */
  journal?: Journal
  /** How much a step and the run may render and store (DEFAULT_STORAGE_LIMITS unless given). */
  limits?: StorageLimits
  /** The app's registries, worker pool, trace cache and config folder, for evaluator steps. */
  evaluation?: EvaluationServices
}

export interface NodeState extends NodeProgress {
  node: WorkflowNode
  definition: StepDefinition
  /** The node's config with what its type takes from the graph (an evaluator's upstream text), before rendering. */
  config: Record<string, unknown>
  /** Times executed. */
  runs: number
  /** Incoming edges whose source has not resolved in this pass. */
  remaining: number
  /** Incoming edges that were taken. */
  active: number
  branch?: string
}

const DEFAULT_CONCURRENCY = 4
const DEFAULT_TIMEOUT_MS = 5 * 60_000

/** One run of a validated workflow: schedules ready nodes, applies branches, skips and retries. */
export class Execution {
  private readonly graph: Graph
  private readonly states = new Map<string, NodeState>()
  private readonly outputs = new Map<string, unknown>()
  private readonly ready: string[] = []
  private readonly deferredReruns: Array<{ retryId: string, target: string, reason: string, replayed: boolean }> = []
  private readonly signal: AbortSignal
  private readonly limit: number
  private readonly timeoutMs: number
  private running = 0
  private failure: SerializedError | null = null
  private wake: (() => void) | null = null
  private readonly startedAt = performance.now()
  private readonly runningSteps = new Set<(reason: unknown) => void>()
  /** Nodes a pending retry will reset: they neither start nor pass results on until it applies. */
  private frozen = new Set<string>()
  /** Replaying a journal stops at the first step whose rendered input differs from the record. */
  private journalValid = true
  private readonly limits: StorageLimits
  /** Characters of step inputs and outputs this run has produced so far. */
  private stored = 0

  constructor(private readonly workflow: Workflow, private readonly options: ExecuteOptions) {
    this.graph = buildGraph(workflow)
    // One internal signal for the run: every running step listens to it, so lift the listener cap.
    const controller = new AbortController()
    setMaxListeners(0, controller.signal)
    if (options.signal?.aborted) controller.abort(options.signal.reason)
    else options.signal?.addEventListener('abort', () => controller.abort(options.signal!.reason), { once: true })
    this.signal = controller.signal
    this.signal.addEventListener('abort', () => {
      for (const abort of [...this.runningSteps]) abort(abortReason(this.signal))
    }, { once: true })
    this.limit = workflow.settings?.concurrency ?? options.concurrency ?? DEFAULT_CONCURRENCY
    this.timeoutMs = workflow.settings?.timeout_ms ?? options.timeoutMs ?? DEFAULT_TIMEOUT_MS
    this.limits = options.limits ?? DEFAULT_STORAGE_LIMITS
    for (const node of this.graph.nodes.values()) {
      const definition = options.registry.get(node.type)
      if (!definition) throw new JudgeflowError('INVALID_WORKFLOW', `node "${node.id}": unknown step type "${node.type}"`)
      const remaining = this.graph.incoming.get(node.id)!.length
      const config = configWithGraphDefaults(this.graph, node.id, options.registry)
      this.states.set(node.id, { node, definition, config, status: 'pending', attempt: 0, runs: 0, remaining, active: 0 })
      if (remaining === 0) this.enqueue(node.id)
    }
  }

  async run(resumed = false): Promise<RunResult> {
    await this.emit({ type: 'run.started', at: Date.now(), resumed })
    for (;;) {
      while (!this.stopped && this.ready.length && this.running < this.limit) {
        const id = this.ready.shift()!
        if (!this.frozen.has(id)) this.launch(id)
      }
      if (this.running === 0) break
      await new Promise<void>((resolve) => { this.wake = resolve })
    }
    // Trailing skip/retrying events may still be committing; their failure must count.
    await this.pendingEmit
    const cancelled = this.signal.aborted
    const result = this.storable(summarizeRun(this.workflow, this.states, {
      status: cancelled ? 'cancelled' : this.failure ? 'failed' : 'succeeded',
      error: cancelled ? { code: 'CANCELLED', category: 'user', message: 'the run was cancelled' } : this.failure,
      durationMs: performance.now() - this.startedAt,
    }))
    await this.emit({ type: 'run.finished', at: Date.now(), result })
    return result
  }

  /**
   * The run's end as it will be stored: its output in the run's row and (bounded) in the
   * `run.finished` event with each step's output. Past the run's limit the output is not stored:
   * the run fails, and its error keeps the output's size and first characters.
   */
  private storable(result: RunResult): RunResult {
    let size = jsonSize(result.output, this.limits.run) + boundedSize(result.output, EVENT_VALUE_LIMIT)
    for (const step of Object.values(result.steps)) size += boundedSize(step.output, EVENT_VALUE_LIMIT)
    if (this.stored + size <= this.limits.run) {
      this.stored += size
      return result
    }
    const message = `the run's output would take its stored inputs and outputs past ${this.limits.run} characters (JUDGEFLOW_MAX_RUN_STORAGE); it was not stored`
    const error = { code: 'TOO_LARGE' as const, category: 'user' as const, message, details: refusedValue(result.output) }
    const steps = Object.fromEntries(Object.entries(result.steps).map(([id, step]) => [id, { ...step, output: null }]))
    return { ...result, status: result.status === 'succeeded' ? 'failed' : result.status, output: null, error: result.error ?? error, steps }
  }

  private get stopped(): boolean {
    return this.failure !== null || this.signal.aborted
  }

  private enqueue(id: string) {
    this.states.get(id)!.status = 'ready'
    this.ready.push(id)
  }

  private scope(attempt: number): ReferenceScope {
    return { input: this.options.input ?? {}, steps: this.outputs, attempt }
  }

  private launch(id: string) {
    const state = this.states.get(id)!
    state.status = 'running'
    state.attempt++
    state.runs++
    this.running++
    this.execute(state).then(
      () => this.settle(),
      (error) => {
        this.fail(serializeError(error))
        this.settle()
      },
    )
  }

  private settle() {
    this.running--
    this.applyDeferredReruns()
    const wake = this.wake
    this.wake = null
    wake?.()
  }

  private async execute(state: NodeState) {
    const { node, definition } = state
    const attempt = state.attempt
    const started = Date.now()
    const t0 = performance.now()
    let input: unknown
    const finish = (fields: Partial<StepRecord> & Pick<StepRecord, 'status'>): StepRecord => ({
      node_id: node.id, attempt, input, started_at: started, finished_at: Date.now(),
      duration_ms: Math.round((performance.now() - t0) * 1000) / 1000, ...fields,
    })
    try {
      // Nothing oversized is kept: the input becomes the step's record only once it is within limits.
      const rendered = renderWithinLimits(node.id, state.config, this.scope(attempt), this.limits)
      // Checked before it is kept or walked: references can nest deep values in one another.
      checkDepth(node.id, 'config', rendered.value)
      // Stored three times: the step's row, and (bounded) its started and its finished event.
      this.countStored(node.id, rendered.size + 2 * boundedSize(rendered.value, EVENT_VALUE_LIMIT))
      input = rendered.value
      const replayed = this.replayed(node.id, attempt, input)
      if (replayed && (replayed.status === 'succeeded' || replayed.status === 'failed')) return await this.complete(state, replayed, true)
      await this.emit({ type: 'step.started', at: started, node_id: node.id, attempt, input })
      const config = nodeConfigSchema(definition, node).safeParse(input)
      if (!config.success) {
        const first = config.error.issues[0]!
        throw new JudgeflowError('INVALID_CONFIG', `node "${node.id}": config.${first.path.join('.')}: ${first.message} (after rendering references)`, { details: config.error.issues })
      }
      await this.options.commit?.()
      const outcome = node.pinned
        ? pinnedOutcome(node, definition, state.runs)
        : await this.runStep(state, config.data, attempt)
      checkDepth(node.id, 'output', outcome.output)
      await this.complete(state, finish({
        status: 'succeeded', output: outcome.output, branch: outcome.branch, usage: outcome.usage,
        cached: outcome.cached, rerun: outcome.rerun, pinned: node.pinned ? true : undefined,
      }), false)
    }
    catch (error) {
      const cancelled = this.signal.aborted || error instanceof StepStopped
      await this.complete(state, finish({ status: cancelled ? 'cancelled' : 'failed', error: serializeError(error) }), false)
    }
  }

  /**
   * A committed record of an interrupted execution, reused only while the replay retraces it:
   * the first step whose rendered input differs from its record ends the replay.
   */
  private replayed(nodeId: string, attempt: number, input: unknown): StepRecord | undefined {
    if (!this.journalValid || !this.options.journal) return undefined
    const record = this.options.journal(nodeId, attempt)
    if (!record || record.status === 'skipped') return record
    if (JSON.stringify(record.input) === JSON.stringify(input)) return record
    this.journalValid = false
    return undefined
  }

  /** The first failure stops the run: nothing new starts and running steps are stopped. */
  private fail(error: SerializedError) {
    if (this.failure) return
    this.failure = error
    for (const abort of [...this.runningSteps]) abort(new StepStopped(error.message))
  }

  /**
   * Runs one step under its timeout and the run's cancellation. The step's AbortSignal is made
   * only when the step asks for it (most built-in steps never do), and one listener on the run
   * signal aborts every running step, so a step costs no per-step event listeners.
   */
  private runStep(state: NodeState, config: unknown, attempt: number): Promise<StepOutcome> {
    const { node, definition } = state
    const timeoutMs = node.timeout_ms ?? this.timeoutMs
    if (this.signal.aborted) return Promise.reject(abortReason(this.signal))
    return new Promise<StepOutcome>((resolve, reject) => {
      let controller: AbortController | undefined
      let settled = false
      const settle = (finish: () => void) => {
        if (settled) return
        settled = true
        clearTimeout(timer)
        this.runningSteps.delete(handle)
        finish()
      }
      // A step that asks for its signal after being stopped still gets an aborted one.
      const handle = (reason: unknown) => settle(() => {
        controller ??= new AbortController()
        controller.abort(reason)
        reject(reason)
      })
      const timer = setTimeout(() => handle(new JudgeflowError('STEP_TIMEOUT', `node "${node.id}" timed out after ${timeoutMs} ms`)), timeoutMs)
      this.runningSteps.add(handle)
      let work: Promise<StepOutcome>
      try {
        work = Promise.resolve(definition.run({
          node, config, attempt, input: this.options.input ?? {},
          get signal() {
            return (controller ??= new AbortController()).signal
          },
          settings: this.workflow.settings ?? {}, providers: this.options.providers, evaluation: this.options.evaluation ?? {}, cache: this.options.cache,
          runsOf: id => this.states.get(id)?.runs ?? 0,
        }))
      }
      catch (error) {
        work = Promise.reject(error)
      }
      work.then(value => settle(() => resolve(value)), error => settle(() => reject(error)))
    })
  }

  /**
   * A step output over the record limit, or one that passes the run's limit, fails the step
   * unstored: its record keeps the refusal, with the output's size and first characters.
   */
  private withinLimits(record: StepRecord): StepRecord {
    if (record.status !== 'succeeded') return record
    const size = jsonSize(record.output, this.limits.stepRecord)
    try {
      if (size > this.limits.stepRecord) {
        throw new JudgeflowError('TOO_LARGE', `node "${record.node_id}": its output is over ${this.limits.stepRecord} characters (JUDGEFLOW_MAX_STEP_RECORD); it was not stored`, { details: refusedValue(record.output) })
      }
      // Stored twice: the step's row, and (bounded) its finished event.
      this.countStored(record.node_id, size + boundedSize(record.output, EVENT_VALUE_LIMIT), record.output)
      return record
    }
    catch (error) {
      return { ...record, status: 'failed', output: undefined, branch: undefined, rerun: undefined, error: serializeError(error) }
    }
  }

  /** Counts what a step stores against the run's limit; past it the step fails (with the refused output's start, when it is one). */
  private countStored(nodeId: string, size: number, output?: unknown) {
    if (this.stored + size > this.limits.run) {
      throw new JudgeflowError('TOO_LARGE', `node "${nodeId}": the run's stored inputs and outputs would pass ${this.limits.run} characters (JUDGEFLOW_MAX_RUN_STORAGE); nothing more is stored for it`, { details: output === undefined ? undefined : refusedValue(output) })
    }
    this.stored += size
  }

  private async complete(state: NodeState, fresh: StepRecord, replayed: boolean) {
    const record = this.withinLimits(fresh)
    state.last = record
    if (!replayed) await this.emit({ type: `step.${record.status}` as 'step.succeeded', at: record.finished_at ?? Date.now(), step: record })
    const discarded = this.frozen.has(state.node.id)
    if (record.status !== 'succeeded') {
      state.status = record.status
      // A step of an attempt a retry is about to redo does not fail the run.
      if (record.status === 'failed' && !discarded) this.fail(record.error ?? { code: 'STEP_FAILED', category: 'system', message: `node "${record.node_id}" failed` })
      return
    }
    state.status = 'succeeded'
    state.branch = record.branch
    this.outputs.set(state.node.id, record.output)
    if (discarded) return
    if (record.rerun) {
      this.deferredReruns.push({ retryId: state.node.id, ...record.rerun, replayed })
      for (const id of downstreamOf(this.graph, record.rerun.target)) this.frozen.add(id)
    }
    else this.resolve(state.node.id)
  }

  /** Marks a node done and passes the result along its outgoing edges. */
  private resolve(id: string) {
    const stack = [id]
    while (stack.length) {
      const current = this.states.get(stack.pop()!)!
      for (const edge of this.graph.outgoing.get(current.node.id)!) {
        const target = this.states.get(edge.to)!
        if (target.status !== 'pending' || this.frozen.has(edge.to)) continue
        target.remaining--
        if (current.status === 'succeeded' && (edge.when === undefined || edge.when === current.branch)) target.active++
        if (target.remaining > 0) continue
        if (target.active > 0) this.enqueue(target.node.id)
        else {
          this.skip(target)
          stack.push(target.node.id)
        }
      }
    }
  }

  private skip(state: NodeState) {
    state.status = 'skipped'
    state.attempt++
    const reason = this.graph.incoming.get(state.node.id)!.map((edge) => {
      const source = this.states.get(edge.from)!
      return source.status === 'skipped' ? `"${edge.from}" was skipped` : `"${edge.from}" took branch "${source.branch ?? '(none)'}", not "${edge.when}"`
    }).join('; ')
    const record: StepRecord = { node_id: state.node.id, attempt: state.attempt, status: 'skipped', reason, finished_at: Date.now() }
    state.last = record
    if (this.journalValid && this.options.journal?.(state.node.id, state.attempt)?.status === 'skipped') return
    this.emitOrdered({ type: 'step.skipped', at: record.finished_at!, step: record })
  }

  /** A retry re-runs its target and everything downstream, once none of those nodes is still running. */
  private applyDeferredReruns() {
    for (let i = 0; i < this.deferredReruns.length; i++) {
      const rerun = this.deferredReruns[i]!
      const reset = downstreamOf(this.graph, rerun.target)
      const busy = [...reset].some(id => id !== rerun.retryId && this.states.get(id)!.status === 'running')
      if (busy && !this.stopped) continue
      this.deferredReruns.splice(i--, 1)
      this.frozen = new Set(this.deferredReruns.flatMap(r => [...downstreamOf(this.graph, r.target)]))
      if (this.stopped) continue
      const attempt = this.states.get(rerun.target)!.runs + 1
      if (!rerun.replayed) this.emitOrdered({ type: 'step.retrying', at: Date.now(), node_id: rerun.retryId, target: rerun.target, attempt, reason: rerun.reason })
      this.resetFrom(reset)
    }
  }

  private resetFrom(reset: Set<string>) {
    for (let i = this.ready.length - 1; i >= 0; i--) if (reset.has(this.ready[i]!)) this.ready.splice(i, 1)
    for (const id of reset) {
      const state = this.states.get(id)!
      state.status = 'pending'
      state.branch = undefined
      state.remaining = 0
      state.active = 0
      for (const edge of this.graph.incoming.get(id)!) {
        const source = this.states.get(edge.from)!
        // Inside the reset set, or outside but not finished yet: wait for it.
        if (reset.has(edge.from) || !['succeeded', 'skipped', 'failed', 'cancelled'].includes(source.status)) state.remaining++
        else if (source.status === 'succeeded' && (edge.when === undefined || edge.when === source.branch)) state.active++
      }
    }
    const roots = [...reset].filter(id => this.states.get(id)!.remaining === 0)
    roots.sort((a, b) => this.graph.order.get(a)! - this.graph.order.get(b)!)
    for (const id of roots) {
      const state = this.states.get(id)!
      if (state.active > 0 || this.graph.incoming.get(id)!.length === 0) this.enqueue(id)
      else {
        this.skip(state)
        this.resolve(id)
      }
    }
  }

  private pendingEmit: Promise<void> = Promise.resolve()

  /** Events raised from synchronous bookkeeping keep their order behind any event being committed. */
  private emitOrdered(event: RunEvent) {
    this.pendingEmit = this.pendingEmit
      .then(() => this.deliver(event))
      .catch((error) => { this.fail(serializeError(error)) })
  }

  private async emit(event: RunEvent) {
    await this.pendingEmit
    await this.deliver(event)
  }

  private deliver(event: RunEvent): void | Promise<void> {
    return this.options.onEvent?.(event)
  }
}

/** Why a running step was stopped when another one failed. */
class StepStopped extends Error {
  constructor(cause: string) {
    super(`stopped because the run failed: ${cause}`)
    this.name = 'AbortError'
  }
}

/** Why the run was stopped (cancelled, timed out, its process stopping): the platform's AbortError, as the evaluation pool gives. */
function abortReason(signal: AbortSignal): unknown {
  const reason: unknown = signal.reason
  if (reason instanceof JudgeflowError) return reason
  return new DOMException(reason instanceof Error ? reason.message : 'the operation was aborted', 'AbortError')
}

/** What is kept of a value refused for its size: how large it is, and how it starts. */
function refusedValue(value: unknown): { size: number, preview: string } {
  return { size: jsonSize(value), preview: jsonPreview(value, PREVIEW_CHARS) }
}

/** A value nested deeper than MAX_VALUE_DEPTH fails the step, naming where; the value itself is not kept. */
function checkDepth(nodeId: string, what: 'config' | 'output', value: unknown): unknown {
  const problem = jsonShapeProblem(value, MAX_VALUE_DEPTH, { anyKey: true })
  if (!problem) return value
  const at = problem.path ? `${what}.${problem.path}` : what
  const [when, advice] = what === 'config' ? [' after rendering references', 'flatten the values its references bring in'] : ['', 'too deep to keep']
  throw new JudgeflowError('INVALID_INPUT', `node "${nodeId}": its ${what} nests objects and arrays more than ${MAX_VALUE_DEPTH} levels deep${when} (at ${at}): ${advice}`)
}
