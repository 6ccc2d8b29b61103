import pg from 'pg'
import PgBoss from 'pg-boss'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { resumeDecision, RunService, type RunQueue, type Store } from '../../../core'
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

/** The scans of a statement's plan (`explain`), each as its node type and index name: "Index Scan runs_pkey". */
async function scansOf(client: pg.Client, text: string, values: unknown[]): Promise<string[]> {
  type PlanNode = { 'Node Type': string, 'Index Name'?: string, 'Plans'?: PlanNode[] }
  const [{ 'QUERY PLAN': [plan] }] = (await client.query({ text: `explain (format json) ${text}`, values })).rows
  const scans: string[] = []
  const walk = (node: PlanNode) => {
    if (node['Node Type'].includes('Scan')) scans.push(`${node['Node Type']} ${node['Index Name'] ?? ''}`.trim())
    for (const child of node.Plans ?? []) walk(child)
  }
  walk(plan.Plan)
  return scans
}

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

  function processOn(url: string, owner: string, runEvents = true) {
    const store = createPostgresStore(url, { poolSize: 4 })
    const queue = createPgRunQueue(url, { store, runEvents })
    const runs = new RunService({ store, queue, owner, registry: options.registry, providers: options.providers, leaseMs: 3_000 })
    opened.push({ runs, queue, store })
    return { runs, store, queue }
  }

  /** A new database with a web process that works no jobs and a worker taking two at a time. */
  async function webAndWorker() {
    const url = await postgres.database()
    const web = processOn(url, 'web')
    const worker = processOn(url, 'worker')
    await worker.runs.work(2)
    return { web, worker }
  }

  it('executes a run started by a process that does not work jobs on a worker, and its subscribers there hear every event in order', async () => {
    const { web } = await webAndWorker()
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

  it('goes on hearing a remote run\'s events after a read of them failed: the next notification reads what was missed', async () => {
    const { web } = await webAndWorker()
    const run = await web.runs.start({ definition: chain(300) })
    const heard: RunEventRow[] = []
    web.runs.subscribe(run.id, row => heard.push(row))
    // The first read of the run's events fails (a dropped connection, say).
    const read = web.store.runs.eventsAfter.bind(web.store.runs)
    let failures = 0
    web.store.runs.eventsAfter = async (...args) => {
      if (!failures++) throw new Error('connection lost')
      return read(...args)
    }
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {})
    try {
      const ended = await runEnded(web.runs, id => web.store.runs.get(id), run.id, 20_000)
      expect(ended).toMatchObject({ status: 'succeeded' })
      await vi.waitFor(() => expect(heard.at(-1)?.type).toBe('run.finished'), { timeout: 5_000 })
    }
    finally {
      logged.mockRestore()
    }
    expect(failures).toBeGreaterThan(1)
    // Every event, once each, in the stored order: the failed read's events came with the next one.
    expect(heard.map(row => row.id)).toEqual((await read(run.id)).map(row => row.id))
  }, 30_000)

  it('a worker that does not hear run events (as `judgeflow worker`) executes runs and hears cancel requests, and no other process\'s events wake it', async () => {
    const url = await postgres.database()
    const web = processOn(url, 'web')
    const worker = processOn(url, 'worker', false)
    const heardByWorker: string[] = []
    const heardByWeb: string[] = []
    worker.queue.onEvent((runId, _id, type) => heardByWorker.push(`${runId} ${type}`))
    web.queue.onEvent((runId, _id, type) => heardByWeb.push(`${runId} ${type}`))
    const cancelsHeard: string[] = []
    worker.queue.onCancel((runId) => {
      cancelsHeard.push(runId)
      return false
    })
    await worker.runs.work(2)
    const done = await web.runs.start({ definition: chain(100) })
    expect(await runEnded(web.runs, id => web.store.runs.get(id), done.id, 20_000)).toMatchObject({ status: 'succeeded', leaseOwner: 'worker' })
    // Cancelled from the web process while the worker executes it: the request reaches the worker.
    const cancelled = await web.runs.start({ definition: chain(5_000) })
    await vi.waitFor(async () => expect((await web.store.runs.get(cancelled.id))?.status).toBe('running'), { timeout: 10_000, interval: 20 })
    expect(await web.runs.cancelAnywhere(cancelled.id)).toBe(true)
    expect(await runEnded(web.runs, id => web.store.runs.get(id), cancelled.id, 20_000)).toMatchObject({ status: 'cancelled' })
    // The web process hears a run's events by NOTIFY, delivered on its own after the stored row says the run ended.
    await vi.waitFor(() => {
      expect(heardByWeb).toContain(`${done.id} run.finished`)
      expect(heardByWeb).toContain(`${cancelled.id} run.finished`)
    }, { timeout: 5_000 })
    // A NOTIFY on the cancel channel after them all: once the worker hears it, it would have heard the events before it.
    const client = new pg.Client({ connectionString: url })
    await client.connect()
    await client.query(`select pg_notify('judgeflow_run_cancel', 'cancel no-such-run')`)
    await client.end()
    await vi.waitFor(() => expect(cancelsHeard).toContain('no-such-run'), { timeout: 5_000 })
    expect(heardByWorker).toEqual([])
  }, 30_000)

  it('pg-boss fetches the next of thousands of queued jobs through an index in its order, not by sorting them all', async () => {
    const url = await postgres.database()
    processOn(url, 'web')
    const client = new pg.Client({ connectionString: url })
    await client.connect()
    try {
      await vi.waitFor(async () => expect((await client.query(`select 1 from pg_indexes where indexname = 'judgeflow_job_fetch_order'`)).rowCount).toBe(1), { timeout: 20_000 })
      // pg-boss's own fetch, as it sends it (captured through its database option), with 5,000 runs queued.
      const sent: Array<{ text: string, values: unknown[] }> = []
      const boss = new PgBoss({ schema: 'pgboss', supervise: false, schedule: false, migrate: false, db: { executeSql: (text: string, values: unknown[]) => {
        sent.push({ text, values })
        return client.query(text, values)
      } } })
      await boss.start()
      await boss.insert(Array.from({ length: 5_000 }, (_, i) => ({ name: 'judgeflow-runs', data: { runId: `r${i}` }, singletonKey: `r${i}` })))
      await client.query('analyze pgboss.job')
      expect(await boss.fetch('judgeflow-runs', { batchSize: 2 })).toHaveLength(2)
      const fetch = sent.find(q => q.text.includes('FOR UPDATE SKIP LOCKED'))!
      const scans = await scansOf(client, fetch.text, fetch.values)
      expect(scans.some(scan => scan.startsWith('Index Scan ') && scan.endsWith('name_priority_created_on_id_idx'))).toBe(true)
      expect(scans.filter(scan => scan.startsWith('Seq Scan'))).toEqual([])
      await boss.stop({ graceful: false, wait: true })
    }
    finally {
      await client.end()
    }
  }, 30_000)

  it('a worker\'s claim finds its run by id, not by reading every run its owner queued, on a table not yet analyzed', async () => {
    const url = await postgres.database()
    const store = createPostgresStore(url, { poolSize: 2 })
    const client = new pg.Client({ connectionString: url })
    await client.connect()
    try {
      const run = await store.runs.create({ definition: { name: 'A' }, owner: 'web', status: 'queued' })
      // A new database in its first minute: 5,000 runs queued by the web process, no statistics yet.
      await client.query('alter table runs set (autovacuum_enabled = false)')
      await client.query(`insert into runs (id, definition, input, options, status, lease_owner, created_at)
        select 'r' || g, '{}', '{}', '{}', 'queued', 'web', g from generate_series(1, 5000) g`)
      const sent = vi.spyOn(store.handle.pool, 'query')
      const claimed = await store.leases.claimQueued(run.id, {
        owner: 'worker', now: Date.now(), lease: { owner: 'worker', expiresAt: Date.now() + 60_000 }, from: 'web', resume: (r, lastStepAt) => resumeDecision(r, lastStepAt, 2), isFree: () => false,
      })
      expect(claimed).toMatchObject({ run: { id: run.id, status: 'running', leaseOwner: 'worker' }, started: true })
      const [statement, values] = sent.mock.calls.find(([q]) => (q as { name?: string }).name === 'judgeflow_claim_queued') as unknown as [{ text: string }, unknown[]]
      expect(await scansOf(client, statement.text, values)).toEqual(['Index Scan runs_pkey'])
    }
    finally {
      await client.end()
      await store.close()
    }
  }, 30_000)

  it('streams a remote run\'s last events and run.finished when the run ends before this process has heard of them', async () => {
    const url = await postgres.database()
    const worker = processOn(url, 'worker')
    await worker.runs.work(2)
    // The web process hears of no event (each NOTIFY as if still on its way), and its look at the
    // run after the replay comes once the run has ended: the window where the row says "ended"
    // while this process has read only part of the events.
    const store = createPostgresStore(url, { poolSize: 4 })
    const queue = createPgRunQueue(url, { store })
    let ended: Promise<unknown> = Promise.resolve()
    const get = store.runs.get.bind(store.runs)
    const late: Store = {
      ...store,
      runs: { ...store.runs, get: async (id) => {
        await ended
        return get(id)
      } },
    }
    const web = new RunService({ store: late, queue: { ...queue, onEvent: () => {} }, owner: 'web', registry: options.registry, providers: options.providers, leaseMs: 3_000 })
    opened.push({ runs: web, queue, store })
    const run = await web.start({ definition: chain(300) })
    await vi.waitFor(async () => expect((await get(run.id))?.status).toBe('running'), { timeout: 10_000, interval: 20 })
    ended = runEnded(worker.runs, id => worker.store.runs.get(id), run.id, 20_000)
    const sent: RunEventRow[] = []
    const closers: Array<() => void> = []
    const sink = {
      closed: false,
      send: (row: RunEventRow) => void sent.push(row),
      drained: () => Promise.resolve(),
      end() {
        sink.closed = true
        for (const close of closers) close()
      },
      onClose: (close: () => void) => void closers.push(close),
    }
    await web.streamEvents(run.id, 0, sink)
    expect(sink.closed).toBe(true)
    const stored = await store.runs.eventsAfter(run.id)
    expect(stored.at(-1)!.type).toBe('run.finished')
    expect(sent.map(row => row.id)).toEqual(stored.map(row => row.id))
  }, 30_000)

  it('stores a started run as it answers it: every column, JSON values as given', async () => {
    const url = await postgres.database()
    const web = processOn(url, 'web')
    const run = await web.runs.start({ definition: chain(10), input: { question: 'q', nested: { list: [1, null, 'ü'] } }, options: { cache: false } })
    expect(await web.store.runs.get(run.id)).toEqual(run)
    expect(run).toMatchObject({ status: 'queued', leaseOwner: 'web', input: { question: 'q', nested: { list: [1, null, 'ü'] } }, options: { cache: false }, output: null, error: null })
  }, 30_000)

  it('stores starts arriving together with their jobs, in shared transactions: each run executes once, and a start whose id is taken fails alone', async () => {
    const { web } = await webAndWorker()
    const first = await web.runs.start({ definition: chain(10) })
    await runEnded(web.runs, id => web.store.runs.get(id), first.id, 20_000)
    tracker.order.length = 0
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {})
    const request = (i: number) => (i === 7 ? { id: first.id, definition: chain(10) } : { definition: chain(10) })
    const starts = await Promise.allSettled(Array.from({ length: 30 }, (_, i) => web.runs.start(request(i))))
    logged.mockRestore()
    const refused = starts.filter(start => start.status === 'rejected')
    expect(refused).toHaveLength(1)
    expect(starts[7]).toMatchObject({ status: 'rejected', reason: { code: 'INTERNAL', details: { sqlstate: '23505' } } })
    const started = starts.flatMap(start => (start.status === 'fulfilled' ? [start.value] : []))
    expect(started).toHaveLength(29)
    const ended = await Promise.all(started.map(run => runEnded(web.runs, id => web.store.runs.get(id), run.id, 20_000)))
    expect(ended.map(run => run.status)).toEqual(Array(29).fill('succeeded'))
    // Each ran once, and the run whose id was taken again was not run a second time.
    expect(tracker.order.filter(id => id === 'second')).toHaveLength(29)
    expect((await web.store.runs.steps(first.id)).filter(step => step.nodeId === 'second')).toHaveLength(1)
  }, 30_000)

  it('reads a workflow once for its starts, and starts the version current when each run is stored: a newer version saved elsewhere, or a deletion, is seen at once', async () => {
    const url = await postgres.database()
    const web = processOn(url, 'web')
    // Another process saves and deletes the workflow: this one hears nothing of it.
    const editor = processOn(url, 'editor')
    const saved = await editor.store.workflows.create({ ...chain(10), name: 'v1' })
    const reads = vi.spyOn(web.store.workflows, 'get')
    const versionOf = async () => (await web.runs.startCurrent(saved.id, { input: {} }))!.run.workflowVersion
    expect(await versionOf()).toBe(1)
    expect(await versionOf()).toBe(1)
    expect(await Promise.all([versionOf(), versionOf(), versionOf()])).toEqual([1, 1, 1])
    expect(reads).toHaveBeenCalledTimes(1)
    await editor.store.workflows.update(saved.id, { ...chain(20), name: 'v2' })
    const second = (await web.runs.startCurrent(saved.id, { input: {} }))!
    expect(second.run).toMatchObject({ workflowVersion: 2, definition: { name: 'v2' } })
    expect(second.workflow).toMatchObject({ version: 2, name: 'v2' })
    expect(await web.store.runs.get(second.run.id)).toMatchObject({ workflowVersion: 2, definition: { name: 'v2' } })
    expect(reads).toHaveBeenCalledTimes(2)
    // The start with version 1 kept stored nothing: 5 runs of version 1 and one of version 2.
    const stored = await web.store.runs.list(saved.id)
    expect(stored.map(run => run.workflowVersion).sort()).toEqual([1, 1, 1, 1, 1, 2])
    await editor.store.workflows.delete(saved.id)
    expect(await web.runs.startCurrent(saved.id, { input: {} })).toBeNull()
    expect(await web.store.runs.list(saved.id)).toEqual([])
  }, 30_000)

  it('shares one read of a workflow among the starts arriving while it is read, and stores none of them with a version no longer current', async () => {
    const url = await postgres.database()
    const web = processOn(url, 'web')
    const editor = processOn(url, 'editor')
    const saved = await editor.store.workflows.create({ ...chain(10), name: 'v1' })
    const read = web.store.workflows.get.bind(web.store.workflows)
    // The first read answers with version 1, then holds its answer until let go.
    let release!: () => void, answered!: () => void
    const held = new Promise<void>((resolve) => { release = resolve })
    const readDone = new Promise<void>((resolve) => { answered = resolve })
    const reads = vi.spyOn(web.store.workflows, 'get').mockImplementationOnce(async (...args) => {
      const workflow = await read(...args)
      answered()
      await held
      return workflow
    })
    const versionOf = async () => (await web.runs.startCurrent(saved.id, { input: {} }))!.run.workflowVersion
    const burst = Array.from({ length: 20 }, versionOf)
    await readDone
    // Version 2 is saved while the read is held; a start arriving now joins the read of version 1.
    await editor.store.workflows.update(saved.id, { ...chain(20), name: 'v2' })
    const after = versionOf()
    release()
    // The start that made the read arrived before the save: version 1. The others shared the read,
    // found version 1 no longer current as they were stored, and read it again: 21 starts, a few reads
    // (as many as the moments their stores were refused at: they are committed in up to 2 batches at once).
    expect(await Promise.all(burst)).toEqual([1, ...Array(19).fill(2)])
    expect(await after).toBe(2)
    expect(reads.mock.calls.length).toBeLessThanOrEqual(4)
    const stored = await web.store.runs.list(saved.id)
    expect(stored.map(run => run.workflowVersion).sort()).toEqual([1, ...Array(20).fill(2)])
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

  it('cancels at once a run waiting in the queue that no worker has taken, withdrawing its job: a worker started later never executes it', async () => {
    const url = await postgres.database()
    const web = processOn(url, 'web')
    const run = await web.runs.start({ definition: chain(50) })
    const heard: RunEventRow[] = []
    web.runs.subscribe(run.id, row => heard.push(row))
    expect(await web.runs.cancelOrInterrupt(run.id)).toBe('cancelling')
    // Ended when the answer comes, not once some process gets to it.
    expect(await web.store.runs.get(run.id)).toMatchObject({ status: 'cancelled', error: { code: 'CANCELLED', message: 'the run was cancelled before it started' } })
    expect(await jobStates(url, run.id)).toEqual(['cancelled'])
    tracker.order.length = 0
    const worker = processOn(url, 'worker')
    await worker.runs.work(2)
    // A later run goes through the same worker: by its end, the cancelled one's turn has long passed.
    const later = await web.runs.start({ definition: chain(50) })
    expect((await runEnded(web.runs, id => web.store.runs.get(id), later.id, 20_000)).status).toBe('succeeded')
    expect(tracker.order).toEqual(['first', 'second'])
    expect(await web.store.runs.steps(run.id)).toEqual([])
    expect((await web.store.runs.get(run.id))!.status).toBe('cancelled')
    const events = await web.store.runs.eventsAfter(run.id)
    expect(events.map(e => e.type)).toEqual(['run.finished'])
    // The web process's subscriber heard the end through the NOTIFY, once.
    await vi.waitFor(() => expect(heard.map(e => e.id)).toEqual(events.map(e => e.id)))
    // Asked again, the run has ended: refused, saying so.
    await expect(web.runs.cancelOrInterrupt(run.id)).rejects.toMatchObject({ code: 'NOT_CANCELLABLE', message: `run "${run.id}" is cancelled and cannot be cancelled` })
  }, 30_000)

  it('does not withdraw a job a worker has taken: the cancel reaches the worker, which stops the run', async () => {
    const url = await postgres.database()
    const web = processOn(url, 'web')
    const worker = processOn(url, 'worker')
    await worker.runs.work(1)
    const run = await web.runs.start({ definition: chain(20_000) })
    await vi.waitFor(() => expect(worker.runs.isActive(run.id)).toBe(true), { timeout: 10_000, interval: 50 })
    expect(await web.queue.withdraw(run.id, { type: 'run.finished', at: 1, result: { status: 'cancelled', verdict: null, output: null, error: null, steps: {}, duration_ms: 0 } })).toBe(false)
    expect(await jobStates(url, run.id)).toEqual(['active'])
    expect(await web.runs.cancelAnywhere(run.id)).toBe(true)
    expect((await runEnded(web.runs, id => web.store.runs.get(id), run.id, 10_000)).status).toBe('cancelled')
  }, 30_000)

  it('deletes a workflow whose runs execute on another process or wait in the queue: each is cancelled before the rows go', async () => {
    const url = await postgres.database()
    const web = processOn(url, 'web')
    const worker = processOn(url, 'worker')
    await worker.runs.work(1)
    const workflow = await web.store.workflows.create(chain(20_000))
    const start = () => web.runs.start({ definition: workflow.definition, workflowId: workflow.id, workflowVersion: workflow.version })
    const running = await start()
    await vi.waitFor(() => expect(worker.runs.isActive(running.id)).toBe(true), { timeout: 10_000, interval: 50 })
    // The worker runs one at a time: this one waits in the queue.
    const waiting = await start()
    let seen = new Map<string, string>()
    let waitingSteps = -1
    const outcome = await web.runs.deleteWorkflowWith(workflow.id, async () => {
      seen = await web.store.runs.statuses([running.id, waiting.id])
      waitingSteps = (await web.store.runs.steps(waiting.id)).length
      return web.store.workflows.delete(workflow.id)
    })
    expect(outcome).toEqual({ removed: true })
    expect(seen).toEqual(new Map([[running.id, 'cancelled'], [waiting.id, 'cancelled']]))
    expect(worker.runs.isActive(running.id)).toBe(false)
    expect(await web.store.runs.get(running.id)).toBeNull()
    // The waiting run's job was withdrawn before the running one was cancelled (whose freed slot
    // would otherwise take it): it never ran a step.
    expect(waitingSteps).toBe(0)
    expect(await jobStates(url, waiting.id)).toEqual(['cancelled'])
  }, 30_000)
})

/** The states of the run's pg-boss jobs. */
async function jobStates(url: string, runId: string): Promise<string[]> {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    const { rows } = await client.query<{ state: string }>('select state from pgboss.job where singleton_key = $1 order by created_on', [runId])
    return rows.map(row => row.state)
  }
  finally {
    await client.end()
  }
}
