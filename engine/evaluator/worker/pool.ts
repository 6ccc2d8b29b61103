/**
 * A small pool of worker threads for offline evaluations, each evaluation with a time limit.
 * Workers start on first use and stay for the next evaluations (starting one costs a few hundred
 * milliseconds); one evaluation runs on a worker at a time, and a worker past the time limit is
 * terminated, which is the only way to stop CPU work, and replaced when next needed.
 */
import { Worker } from 'node:worker_threads'
import { JudgeflowError, type SerializedError } from '../../errors'
import type { EvaluatorResult } from '../../schema/evaluator'
import { DEFAULT_TRACE_CACHE, sharedTraceCache } from '../../trace/shared-cache'
import type { TraceSettings } from '../context'
import type { CacheWindow, NoveltyMemory } from '../../trace/vector-cache'
import type { FromWorker, ToWorker, WorkerSetup } from './protocol'
import type { EvaluationJob, EvaluationRunner } from './runner'

export const TIME_LIMIT_VARIABLE = 'JUDGEFLOW_EVAL_TIME_LIMIT_MS'
export const DEFAULT_TIME_LIMIT_MS = 10_000
export const DEFAULT_WORKERS = 2

export interface EvaluationPoolOptions {
  /** The worker's entry: the bundled `evaluation-worker.mjs` of a build, or `entry.ts` run through tsx. */
  entry: URL
  /** Workers at most (2). */
  size?: number
  /** Per evaluation, from the moment a worker takes it (10,000). */
  timeLimitMs?: number
  /** Folders of custom metrics and scorers, loaded by every worker as by the server. */
  metricsDir?: string
  scorersDir?: string
  /** Where trace novelty is remembered: the default trace cache unless given. */
  traceCache?: NoveltyMemory
  /** What that cache keeps and the embedding model, for the workers' trace scoring (the defaults unless given). */
  trace?: TraceSettings
}

interface Task {
  id: number
  job: EvaluationJob
  signal?: AbortSignal
  onAbort: () => void
  resolve(result: EvaluatorResult): void
  reject(error: unknown): void
}

interface Slot {
  worker: Worker
  ready: boolean
  task?: Task
  timer?: NodeJS.Timeout
}

const cancelled = (signal: AbortSignal) => (signal.reason instanceof Error ? signal.reason : new DOMException('The evaluation was cancelled.', 'AbortError'))
const revive = (error: SerializedError) => new JudgeflowError(error.code, error.message, { category: error.category, details: error.details })

export class EvaluationPool implements EvaluationRunner {
  readonly size: number
  readonly timeLimitMs: number
  private readonly slots: Slot[] = []
  private readonly queue: Task[] = []
  private nextId = 1
  private closed = false

  constructor(private readonly options: EvaluationPoolOptions) {
    this.size = Math.max(1, options.size ?? DEFAULT_WORKERS)
    this.timeLimitMs = options.timeLimitMs ?? DEFAULT_TIME_LIMIT_MS
  }

  /** Evaluations waiting for a worker. */
  get waiting(): number {
    return this.queue.length
  }

  /** Worker threads started so far and still running. */
  get workers(): number {
    return this.slots.length
  }

  run(job: EvaluationJob, signal?: AbortSignal): Promise<EvaluatorResult> {
    if (this.closed) return Promise.reject(new JudgeflowError('INTERNAL', 'The evaluation workers are shut down.', { category: 'system' }))
    if (signal?.aborted) return Promise.reject(cancelled(signal))
    return new Promise((resolve, reject) => {
      const task: Task = { id: this.nextId++, job, signal, resolve, reject, onAbort: () => this.abort(task) }
      signal?.addEventListener('abort', task.onAbort, { once: true })
      this.queue.push(task)
      this.dispatch()
    })
  }

  /** Stops every worker; evaluations still waiting or running fail. */
  async close(): Promise<void> {
    this.closed = true
    const error = new JudgeflowError('INTERNAL', 'The evaluation workers were shut down before the evaluation finished.', { category: 'system' })
    for (const task of this.queue.splice(0)) this.settle(task, () => task.reject(error))
    await Promise.all([...this.slots].map(slot => this.discard(slot, error)))
  }

  private dispatch(): void {
    for (let slot = this.idleSlot(); slot && this.queue.length; slot = this.idleSlot()) this.assign(slot, this.queue.shift()!)
    let starting = this.slots.filter(s => !s.ready).length
    while (this.queue.length > starting && this.slots.length < this.size) {
      this.start()
      starting++
    }
  }

  private idleSlot(): Slot | undefined {
    return this.slots.find(s => s.ready && !s.task)
  }

  private start(): void {
    const setup: WorkerSetup = {
      metricsDir: this.options.metricsDir,
      scorersDir: this.options.scorersDir,
      traceDimensions: this.traceCache.dimensions,
      trace: this.options.trace ?? { limits: DEFAULT_TRACE_CACHE },
    }
    const worker = startWorker(this.options.entry, setup)
    const slot: Slot = { worker, ready: false }
    this.slots.push(slot)
    worker.unref()
    worker.on('message', (message: FromWorker) => this.receive(slot, message))
    worker.on('error', error => this.lost(slot, error.message))
    worker.on('exit', code => this.lost(slot, `it exited with code ${code}`))
  }

  private get traceCache(): NoveltyMemory {
    return this.options.traceCache ?? sharedTraceCache()
  }

  private receive(slot: Slot, message: FromWorker): void {
    if (message.type === 'ready') {
      slot.ready = true
      this.dispatch()
    }
    else if (message.type === 'start-failed') this.lost(slot, message.message)
    else if (message.type === 'novelty') void this.answerNovelty(slot, message.id, message.vector, message.window)
    else if (slot.task?.id === message.id) {
      const task = slot.task
      this.release(slot)
      this.settle(task, () => (message.type === 'done' ? task.resolve(message.result) : task.reject(revive(message.error))))
      this.dispatch()
    }
  }

  private async answerNovelty(slot: Slot, id: number, vector: Float32Array, window?: CacheWindow): Promise<void> {
    const similarity = await this.traceCache.compareAndAdd(vector, window)
    if (slot.task?.id === id) slot.worker.postMessage({ type: 'novelty', id, similarity } satisfies ToWorker)
  }

  private assign(slot: Slot, task: Task): void {
    slot.task = task
    slot.worker.ref()
    slot.timer = setTimeout(() => this.expire(slot), this.timeLimitMs)
    try {
      slot.worker.postMessage({ type: 'evaluate', id: task.id, job: task.job } satisfies ToWorker)
    }
    catch (error) {
      this.release(slot)
      this.settle(task, () => task.reject(new JudgeflowError('INTERNAL', `The evaluation could not be sent to a worker: ${(error as Error).message}`, { category: 'system', cause: error })))
    }
  }

  private release(slot: Slot): void {
    clearTimeout(slot.timer)
    slot.task = undefined
    slot.worker.unref()
  }

  private settle(task: Task, settle: () => void): void {
    task.signal?.removeEventListener('abort', task.onAbort)
    settle()
  }

  private expire(slot: Slot): void {
    const ms = this.timeLimitMs
    void this.discard(slot, new JudgeflowError('EVALUATION_TIME_LIMIT', `The evaluation did not finish within the time limit of ${ms} ms and was stopped: evaluate shorter texts, fewer criteria or a smaller input, or raise ${TIME_LIMIT_VARIABLE}.`, { details: { variable: TIME_LIMIT_VARIABLE, limit_ms: ms } }))
  }

  private abort(task: Task): void {
    const queued = this.queue.indexOf(task)
    if (queued >= 0) {
      this.queue.splice(queued, 1)
      task.reject(cancelled(task.signal!))
      return
    }
    const slot = this.slots.find(s => s.task === task)
    if (slot) void this.discard(slot, cancelled(task.signal!))
  }

  /** A worker that stopped or failed: its evaluation fails, and if it never became ready, so do the waiting ones (a broken entry would fail again). */
  private lost(slot: Slot, reason: string): void {
    if (!this.slots.includes(slot)) return
    const error = new JudgeflowError('INTERNAL', `An evaluation worker stopped: ${reason}.`, { category: 'system' })
    if (!slot.ready) for (const task of this.queue.splice(0)) this.settle(task, () => task.reject(error))
    void this.discard(slot, error)
  }

  /** Terminates a worker; its evaluation, if any, fails with `error`. */
  private async discard(slot: Slot, error: unknown): Promise<void> {
    const index = this.slots.indexOf(slot)
    if (index < 0) return
    this.slots.splice(index, 1)
    const task = slot.task
    this.release(slot)
    if (task) this.settle(task, () => task.reject(error))
    this.dispatch()
    await slot.worker.terminate()
  }
}

/**
 * A bundled entry runs as it is; a TypeScript one (the CLI, tests) through tsx's loader, found from
 * here: the thread's own resolution starts from the working directory, which may be any folder.
 */
function startWorker(entry: URL, workerData: WorkerSetup): Worker {
  if (!entry.pathname.endsWith('.ts')) return new Worker(entry, { workerData })
  const tsx = import.meta.resolve('tsx/esm/api')
  const bootstrap = `import(${JSON.stringify(tsx)}).then(({ register }) => { register(); return import(${JSON.stringify(entry.href)}) })`
  return new Worker(bootstrap, { eval: true, workerData })
}
