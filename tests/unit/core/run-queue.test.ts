import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { RunService, type RunQueue, type Store } from '../../../core'
import type { RunEventRow } from '../../../db'
import { createPgRunQueue, createPostgresStore } from '../../../db/pg'
import { startPostgres, type TestPostgres } from '../../support/postgres'
import { runEnded } from '../../support/runs'
import { sleepChain as chain, sleepStep, testDeps } from '../../support/workflows'

const { step, tracker } = sleepStep()
const { options } = testDeps([step])

let postgres: TestPostgres
beforeAll(async () => { postgres = await startPostgres() }, 60_000)
afterAll(async () => { await postgres?.stop() })

/** Two processes' worth of run services on one database: each its own pool, queue and lease holder. */
describe('runs through the PostgreSQL queue', () => {
  const opened: Array<{ runs: RunService, queue: RunQueue, store: Store }> = []
  afterEach(async () => {
    for (const { runs, queue, store } of opened.splice(0)) {
      await runs.drain(0)
      await queue.close()
      await store.close()
    }
  })

  function processOn(url: string, owner: string) {
    const store = createPostgresStore(url, { poolSize: 4 })
    const queue = createPgRunQueue(url)
    const runs = new RunService({ store, queue, owner, registry: options.registry, providers: options.providers, leaseMs: 3_000 })
    opened.push({ runs, queue, store })
    return { runs, store }
  }

  it('executes a run started by a process that does not work jobs on a worker, and its subscribers there hear every event in order', async () => {
    const url = await postgres.database()
    const web = processOn(url, 'web')
    const worker = processOn(url, 'worker')
    await worker.runs.work(2)
    const run = await web.runs.start({ definition: chain(300) })
    expect(run.status).toBe('queued')
    const heard: RunEventRow[] = []
    web.runs.subscribe(run.id, row => heard.push(row))
    const ended = await runEnded(web.runs, id => web.store.runs.get(id), run.id, 20_000)
    expect(ended).toMatchObject({ status: 'succeeded', leaseOwner: 'worker', output: 'two' })
    expect(web.runs.isActive(run.id)).toBe(false)
    const stored = await web.store.runs.eventsAfter(run.id)
    // Subscribed before the worker took the job: every event, once each, in the stored order.
    expect(heard.map(row => row.id)).toEqual(stored.map(row => row.id))
    expect(heard.map(row => row.type)).toEqual(stored.map(row => row.type))
    expect(heard.at(-1)!.type).toBe('run.finished')
  }, 30_000)

  it('runs each run once when its job is taken again', async () => {
    const url = await postgres.database()
    const web = processOn(url, 'web')
    const worker = processOn(url, 'worker-1')
    const other = processOn(url, 'worker-2')
    await worker.runs.work(4)
    await other.runs.work(4)
    tracker.order.length = 0
    const started = await Promise.all(Array.from({ length: 6 }, () => web.runs.start({ definition: chain(50) })))
    const ended = await Promise.all(started.map(run => runEnded(web.runs, id => web.store.runs.get(id), run.id, 20_000)))
    expect(ended.map(run => run.status)).toEqual(Array(6).fill('succeeded'))
    // The same jobs once more: their runs have ended, nothing runs again.
    const queue = opened[0]!.queue
    for (const run of started) await queue.enqueue({ runId: run.id, from: 'web' })
    await new Promise(resolve => setTimeout(resolve, 2_000))
    expect(tracker.order.filter(id => id === 'second')).toHaveLength(6)
    for (const run of started) {
      const steps = await web.store.runs.steps(run.id)
      expect(steps.filter(s => s.nodeId === 'second')).toHaveLength(1)
    }
  }, 30_000)

  it('cancels a run from a process other than the one executing it', async () => {
    const url = await postgres.database()
    const web = processOn(url, 'web')
    const worker = processOn(url, 'worker')
    await worker.runs.work(1)
    const run = await web.runs.start({ definition: chain(20_000) })
    for (let i = 0; i < 200 && !worker.runs.isActive(run.id); i++) await new Promise(resolve => setTimeout(resolve, 50))
    expect(worker.runs.isActive(run.id)).toBe(true)
    expect(await web.runs.cancelOrInterrupt(run.id)).toBe('cancelling')
    const ended = await runEnded(web.runs, id => web.store.runs.get(id), run.id, 10_000)
    expect(ended.status).toBe('cancelled')
  }, 30_000)
})
