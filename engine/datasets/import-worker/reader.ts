/**
 * Imports read on a worker thread. A megabyte of YAML takes the parser seconds, and validating
 * tens of thousands of cases a good part of one; on the server's thread that would stall every
 * request meanwhile. One worker reads one import at a time (the others wait their turn), starts on
 * first use, stays for the next, and is replaced when it dies or passes the time limit.
 *
 * The wait is bounded: an import that would wait behind `maxQueued` others, or that would give its
 * client more than `maxPerClient` imports waiting or being read, is refused at once
 * (TOO_MANY_IMPORTS). The turn goes to the client served longest ago, so one client's backlog
 * never stands between another client's import and the worker: that import waits for the read
 * under way at most, not for every import queued before it.
 */
import { Worker } from 'node:worker_threads'
import { JudgeflowError, type SerializedError } from '../../errors'
import type { FromWorker, ImportJob, ImportResults, ToWorker } from './protocol'
import { DEFAULT_MAX_IMPORTS_PER_CLIENT, DEFAULT_MAX_QUEUED_IMPORTS, importQueueRefusal } from './queue-limits'
import { parseOwnJson } from '../../text/own-json'

/** An import still being read after this long is refused; no file within the body limit comes near it. */
export const IMPORT_TIME_LIMIT_MS = 30_000

export interface ImportReaderOptions {
  /** The worker's entry: the bundled `import-worker.mjs` of a build, or `entry.ts` run through tsx. */
  entry: URL
  timeLimitMs?: number
  maxQueued?: number
  maxPerClient?: number
}

interface Task {
  id: number
  job: ImportJob
  client: string
  resolve(result: unknown): void
  reject(error: unknown): void
}

const revive = (error: SerializedError) => new JudgeflowError(error.code, error.message, { category: error.category, details: error.details })

export class ImportReader {
  private worker?: Worker
  private current?: Task & { timer: NodeJS.Timeout }
  private readonly queue: Task[] = []
  /** When each client with an import waiting or being read last had its turn (a count of turns). */
  private readonly lastTurn = new Map<string, number>()
  private turns = 0
  private nextId = 1
  private closed = false

  constructor(private readonly options: ImportReaderOptions) {}

  /** Reads `job` for `client` (whom the limit per client counts it against), or refuses it when the wait is full. */
  read<K extends ImportJob['kind']>(job: Extract<ImportJob, { kind: K }>, client = ''): Promise<ImportResults[K]> {
    if (this.closed) return Promise.reject(new JudgeflowError('INTERNAL', 'The import reader is shut down.', { category: 'system' }))
    const refusal = this.refusal(client)
    if (refusal) return Promise.reject(refusal)
    return new Promise((resolve, reject) => {
      this.queue.push({ id: this.nextId++, job, client, resolve: resolve as (result: unknown) => void, reject })
      this.dispatch()
    })
  }

  /** Why a new import of `client` may not wait, if it may not (see queue-limits.ts). */
  private refusal(client: string): JudgeflowError | undefined {
    const own = this.queue.filter(task => task.client === client).length + (this.current?.client === client ? 1 : 0)
    return importQueueRefusal(own, this.queue.length, {
      maxQueued: this.options.maxQueued ?? DEFAULT_MAX_QUEUED_IMPORTS,
      maxPerClient: this.options.maxPerClient ?? DEFAULT_MAX_IMPORTS_PER_CLIENT,
      timeLimitMs: this.options.timeLimitMs ?? IMPORT_TIME_LIMIT_MS,
    })
  }

  /** Stops the worker; imports still waiting or being read fail. */
  async close(): Promise<void> {
    this.closed = true
    const error = new JudgeflowError('INTERNAL', 'The server shut down before the import was read.', { category: 'system' })
    for (const task of this.queue.splice(0)) task.reject(error)
    this.lastTurn.clear()
    await this.discard(error)
  }

  private dispatch(): void {
    if (this.current || !this.queue.length) return
    const task = this.takeTurn()
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
    if (message.ok) task.resolve(parseOwnJson(message.json))
    else task.reject(revive(message.error))
    this.dispatch()
  }

  /** The oldest import of the client whose last turn is oldest (a client with none waiting before it goes first). */
  private takeTurn(): Task {
    const turnOf = (task: Task) => this.lastTurn.get(task.client) ?? 0
    let next = 0
    for (let i = 1; i < this.queue.length; i++) if (turnOf(this.queue[i]!) < turnOf(this.queue[next]!)) next = i
    const [task] = this.queue.splice(next, 1)
    this.lastTurn.set(task!.client, ++this.turns)
    return task!
  }

  private finish(): void {
    const client = this.current?.client
    clearTimeout(this.current?.timer)
    this.current = undefined
    this.worker?.unref()
    // Only clients with imports under way are remembered.
    if (client !== undefined && !this.queue.some(task => task.client === client)) this.lastTurn.delete(client)
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
