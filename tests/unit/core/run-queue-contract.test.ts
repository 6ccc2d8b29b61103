import { afterAll, afterEach, describe, expect, it, vi } from 'vitest'
import type { RunJob, RunQueue, Store } from '../../../core'
import { newRunRow } from '../../../core/rows'
import { ProcessRunQueue } from '../../../core/runs/process-queue'
import { endEvent } from '../../../core/runs/run-writer'
import { createSqliteStore, openDatabase } from '../../../db'
import { createPgRunQueue, createPostgresStore } from '../../../db/pg'
import { startPostgres, type TestPostgres } from '../../support/postgres'
import { sleepChain as chain } from '../../support/workflows'

const OWNER = 'me'

let postgres: Promise<TestPostgres> | undefined
afterAll(async () => { await (await postgres)?.stop() })

/** The two queues, each over a new, empty store of its database: one contract for both. */
const queues: Array<{ name: string, open: () => Promise<{ store: Store, queue: RunQueue }> }> = [
  {
    name: 'this process\'s own (SQLite)',
    open: async () => {
      const store = createSqliteStore(openDatabase(':memory:'))
      return { store, queue: new ProcessRunQueue(store) }
    },
  },
  {
    name: 'pg-boss (PostgreSQL)',
    open: async () => {
      postgres ??= startPostgres()
      const url = await (await postgres).database()
      const store = createPostgresStore(url, { poolSize: 4 })
      return { store, queue: createPgRunQueue(url, { store }) }
    },
  },
]

describe.each(queues)('the run queue: $name', ({ open }) => {
  const opened: Array<{ store: Store, queue: RunQueue }> = []
  afterEach(async () => {
    for (const { store, queue } of opened.splice(0)) {
      await queue.close()
      await store.close()
    }
  })

  async function queueWithStore() {
    const both = await open()
    opened.push(both)
    return both
  }

  /** A new run queued under this process's name, and its job. */
  function queuedRun(definition = chain(10)) {
    const run = newRunRow({ definition, status: 'queued', owner: OWNER })
    return { run, job: { runId: run.id, from: OWNER } satisfies RunJob }
  }

  const claimOptions = (now = Date.now()) => ({
    owner: OWNER, now, lease: { owner: OWNER, expiresAt: now + 60_000 }, from: OWNER,
    isFree: () => false, resume: () => ({ resumesWithoutProgress: 1 }),
  })

  /** A worker taking `concurrency` jobs at a time, each held until `release(runId)`. */
  async function heldWorker(queue: RunQueue, concurrency: number) {
    const taken: RunJob[] = []
    const releases = new Map<string, () => void>()
    await queue.work(concurrency, job => new Promise<void>((resolve) => {
      taken.push(job)
      releases.set(job.runId, resolve)
    }))
    return { taken, release: (runId: string) => releases.get(runId)?.() }
  }

  it('stores a submitted run with its job, hands the job to a worker, and the worker\'s claim takes the run for it', async () => {
    const { store, queue } = await queueWithStore()
    await store.leases.renew({ owner: OWNER, expiresAt: Date.now() + 60_000 })
    const { taken } = await heldWorker(queue, 2)
    const { run, job } = queuedRun()
    expect(await queue.submit(run, job)).toBe(true)
    expect((await store.runs.get(run.id))?.leaseOwner).toBe(OWNER)
    await vi.waitFor(() => expect(taken).toEqual([job]), { timeout: 10_000, interval: 20 })
    const claimed = await queue.claim(job, claimOptions())
    expect(claimed?.run).toMatchObject({ id: run.id, leaseOwner: OWNER })
  }, 60_000)

  it('stores a run with `ifCurrent` only while its workflow version is the current one', async () => {
    const { store, queue } = await queueWithStore()
    const first = await store.workflows.create(chain(10) as never)
    await store.workflows.update(first.id, chain(20) as never)
    const stale = queuedRun()
    stale.run.workflowId = first.id
    stale.run.workflowVersion = first.version
    expect(await queue.submit(stale.run, stale.job, { ifCurrent: true })).toBe(false)
    expect(await store.runs.get(stale.run.id)).toBeNull()
    const current = queuedRun()
    current.run.workflowId = first.id
    current.run.workflowVersion = first.version + 1
    expect(await queue.submit(current.run, current.job, { ifCurrent: true })).toBe(true)
    expect(await store.runs.get(current.run.id)).not.toBeNull()
  }, 60_000)

  it('takes `concurrency` jobs at a time, in order, the next once one is done', async () => {
    const { queue } = await queueWithStore()
    const { taken, release } = await heldWorker(queue, 1)
    const [a, b] = [queuedRun(), queuedRun()]
    await queue.submit(a.run, a.job)
    await queue.submit(b.run, b.job)
    await vi.waitFor(() => expect(taken).toEqual([a.job]), { timeout: 10_000, interval: 20 })
    release(a.run.id)
    await vi.waitFor(() => expect(taken).toEqual([a.job, b.job]), { timeout: 10_000, interval: 20 })
  }, 60_000)

  it('withdraws a job still waiting with its run\'s end, which every listener hears; a job a worker has is not withdrawn', async () => {
    const { store, queue } = await queueWithStore()
    const heard: Array<[string, string | undefined]> = []
    queue.onEvent((runId, _eventId, type) => heard.push([runId, type]))
    const { taken } = await heldWorker(queue, 1)
    const [a, b] = [queuedRun(), queuedRun()]
    await queue.submit(a.run, a.job)
    await vi.waitFor(() => expect(taken).toEqual([a.job]), { timeout: 10_000, interval: 20 })
    await queue.submit(b.run, b.job)
    const cancelled = endEvent('cancelled', { code: 'CANCELLED', category: 'user', message: 'cancelled before it started' })
    expect(await queue.withdraw(a.run.id, cancelled)).toBe(false)
    expect(await queue.withdraw(b.run.id, cancelled)).toBe(true)
    expect((await store.runs.get(b.run.id))?.status).toBe('cancelled')
    expect((await store.runs.get(a.run.id))?.status).toBe('queued')
    await vi.waitFor(() => expect(heard).toContainEqual([b.run.id, 'run.finished']), { timeout: 10_000, interval: 20 })
    // Withdrawn, the job is never taken.
    expect(taken).toEqual([a.job])
  }, 60_000)

  it('asks whichever process holds a run to cancel it: true once one says it is cancelling it', async () => {
    const { queue } = await queueWithStore()
    queue.onCancel(runId => runId === 'held-here')
    expect(await queue.requestCancel('held-here')).toBe(true)
    expect(await queue.requestCancel('held-nowhere')).toBe(false)
  }, 60_000)
})
