/**
 * Imports read on a worker thread. A megabyte of YAML takes the parser seconds, and validating
 * tens of thousands of cases a good part of one; on the server's thread that would stall every
 * request meanwhile. One worker reads one import at a time (the others wait their turn), starts on
 * first use, stays for the next, and is replaced when it dies or passes the time limit.
 */
import { Worker } from 'node:worker_threads'
import { JudgeflowError, type SerializedError } from '../../errors'
import type { FromWorker, ImportJob, ImportResults, ToWorker } from './protocol'

/** An import still being read after this long is refused; no file within the body limit comes near it. */
export const IMPORT_TIME_LIMIT_MS = 30_000

export interface ImportReaderOptions {
  /** The worker's entry: the bundled `import-worker.mjs` of a build, or `entry.ts` run through tsx. */
  entry: URL
  timeLimitMs?: number
}

interface Task {
  id: number
  job: ImportJob
  resolve(result: unknown): void
  reject(error: unknown): void
}

const revive = (error: SerializedError) => new JudgeflowError(error.code, error.message, { category: error.category, details: error.details })

export class ImportReader {
  private worker?: Worker
  private current?: Task & { timer: NodeJS.Timeout }
  private readonly queue: Task[] = []
  private nextId = 1
  private closed = false

  constructor(private readonly options: ImportReaderOptions) {}

  read<K extends ImportJob['kind']>(job: Extract<ImportJob, { kind: K }>): Promise<ImportResults[K]> {
    if (this.closed) return Promise.reject(new JudgeflowError('INTERNAL', 'The import reader is shut down.', { category: 'system' }))
    return new Promise((resolve, reject) => {
      this.queue.push({ id: this.nextId++, job, resolve: resolve as (result: unknown) => void, reject })
      this.dispatch()
    })
  }

  /** Stops the worker; imports still waiting or being read fail. */
  async close(): Promise<void> {
    this.closed = true
    const error = new JudgeflowError('INTERNAL', 'The server shut down before the import was read.', { category: 'system' })
    for (const task of this.queue.splice(0)) task.reject(error)
    await this.discard(error)
  }

  private dispatch(): void {
    if (this.current || !this.queue.length) return
    const task = this.queue.shift()!
    const worker = this.worker ??= this.start()
    const limit = this.options.timeLimitMs ?? IMPORT_TIME_LIMIT_MS
    const timer = setTimeout(() => void this.discard(new JudgeflowError('INVALID_INPUT', `The import was not read within ${limit / 1000} s and was stopped: split it into smaller files.`, { details: { limit_ms: limit } })), limit)
    this.current = { ...task, timer }
    worker.ref()
    worker.postMessage({ id: task.id, job: task.job } satisfies ToWorker)
  }

  private start(): Worker {
    const worker = startWorker(this.options.entry)
    worker.unref()
    worker.on('message', (message: FromWorker) => this.receive(worker, message))
    worker.on('error', error => this.lost(worker, error.message))
    worker.on('exit', code => this.lost(worker, `it exited with code ${code}`))
    return worker
  }

  private receive(worker: Worker, message: FromWorker): void {
    const task = this.current
    if (worker !== this.worker || task?.id !== message.id) return
    this.finish()
    if (message.ok) task.resolve(JSON.parse(message.json))
    else task.reject(revive(message.error))
    this.dispatch()
  }

  private finish(): void {
    clearTimeout(this.current?.timer)
    this.current = undefined
    this.worker?.unref()
  }

  private lost(worker: Worker, reason: string): void {
    if (worker !== this.worker) return
    void this.discard(new JudgeflowError('INTERNAL', `The import worker stopped: ${reason}.`, { category: 'system' }))
  }

  /** Stops the worker; the import it was reading fails with `error`, the next ones go to a new worker. */
  private async discard(error: unknown): Promise<void> {
    const worker = this.worker
    const task = this.current
    this.worker = undefined
    this.finish()
    task?.reject(error)
    if (!this.closed) this.dispatch()
    await worker?.terminate()
  }
}

/** A bundled entry runs as it is; a TypeScript one (tests, development) through tsx's loader. */
function startWorker(entry: URL): Worker {
  if (!entry.pathname.endsWith('.ts')) return new Worker(entry)
  const bootstrap = `import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(entry.href)}) })`
  return new Worker(bootstrap, { eval: true })
}
