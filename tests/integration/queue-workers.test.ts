import { readdirSync, readFileSync } from 'node:fs'
import pg from 'pg'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { lastUserText } from '../support/fake-llm'
import { readSse, useServersWithFakeLLM, waitFor, type AppServer } from '../support/app-server'
import { startPostgres, type TestPostgres } from '../support/postgres'
import { runWhen } from '../support/runs'
import { llmChain } from '../support/workflows'
import { startWorker, type WorkerProcess } from '../support/workers'

const { fake, start } = useServersWithFakeLLM({ beforeAll, afterAll })
let postgres: TestPostgres
beforeAll(async () => { postgres = await startPostgres() }, 60_000)
afterAll(async () => postgres?.stop())

const workers: WorkerProcess[] = []
afterEach(async () => {
  for (const worker of workers.splice(0)) await worker.stop('SIGKILL')
  fake.reset()
})

const workflow = llmChain(['a', 'b', 'c'])
const asked = (step: string) => fake.requests.filter(r => lastUserText(r).startsWith(`step ${step}`)).length
/** Step b answers after `ms`, the others at once; every answer names its step. */
const slowStepB = (ms: number) => fake.onRequest(request => ({ text: `answer to ${lastUserText(request).split(' ')[1]}`, delayMs: lastUserText(request).startsWith('step b') ? ms : 20 }))

/** A web process that only queues runs (`serve --no-worker`), on a new database, and the env its workers share. */
async function webOnly() {
  const url = await postgres.database()
  const env = { ...fake.env(), JUDGEFLOW_RUN_LEASE_MS: '1500' }
  const web = await start({ env: { ...env, JUDGEFLOW_DATABASE_URL: url, JUDGEFLOW_WORKER: '0' } })
  const worker = async (args: string[] = []) => {
    const started = await startWorker(url, env, args)
    workers.push(started)
    return started
  }
  return { url, web, worker }
}

async function startRun(web: AppServer): Promise<string> {
  const { body: wf } = await web.api('/api/workflows', { body: workflow })
  const { status, body: run } = await web.api(`/api/workflows/${wf.id}/runs`, { body: {} })
  expect(status).toBe(202)
  return run.id as string
}

async function query<T>(url: string, text: string, values: unknown[]): Promise<T[]> {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    return (await client.query(text, values)).rows as T[]
  }
  finally {
    await client.end()
  }
}

describe('runs on worker processes (PostgreSQL)', () => {
  it('executes a run started on a server without a worker on a worker process; the server streams every event in order, and replays after Last-Event-ID', async () => {
    slowStepB(300)
    const { url, web, worker } = await webOnly()
    const runId = await startRun(web)
    // Nothing executes it before a worker is there.
    await new Promise(resolve => setTimeout(resolve, 1_000))
    expect((await web.api(`/api/runs/${runId}`)).body.status).toBe('queued')
    const streamed = readSse(`${web.url}/api/runs/${runId}/events`, {}, 30_000)
    const executing = await worker()
    const events = await streamed
    const stored = await query<{ id: number, type: string }>(url, 'select id, type from run_events where run_id = $1 order by id', [runId])
    expect(events.map(e => e.id)).toEqual(stored.map(row => Number(row.id)))
    expect(events.map(e => e.event)).toEqual(stored.map(row => row.type))
    expect(events.at(-1)).toMatchObject({ event: 'run.finished', data: { result: { status: 'succeeded', output: 'answer to c' } } })
    const [run] = await query<{ lease_owner: string }>(url, 'select lease_owner from runs where id = $1', [runId])
    expect(run!.lease_owner.split(':')[1]).toBe(String(executing.process.pid))
    // A reconnect from the middle gets the rest, nothing twice.
    const middle = events[Math.floor(events.length / 2)]!.id
    const rest = await readSse(`${web.url}/api/runs/${runId}/events`, { 'Last-Event-ID': String(middle) })
    expect(rest.map(e => e.id)).toEqual(events.filter(e => e.id > middle).map(e => e.id))
  }, 60_000)

  it('runs at a lower CPU priority, nice 10 unless told (--nice), and says so as it starts: its threads too', async () => {
    const { worker } = await webOnly()
    /** The nice value of each of a process's threads, from /proc (Linux). */
    const niceOf = (pid: number) => readdirSync(`/proc/${pid}/task`).map(tid => Number(readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8').split(') ')[1]!.split(' ')[16]))
    const own = niceOf(process.pid)[0]!
    const usual = await worker()
    expect(usual.output()).toContain(`at CPU priority nice ${Math.max(own, 10)}`)
    const threads = niceOf(usual.process.pid!)
    // The main thread, libuv's pool and the evaluation workers' threads.
    expect(threads.length).toBeGreaterThan(4)
    expect(new Set(threads)).toEqual(new Set([Math.max(own, 10)]))
    const lowest = await worker(['--nice', '19'])
    expect(new Set(niceOf(lowest.process.pid!))).toEqual(new Set([19]))
    expect(lowest.output()).toContain('at CPU priority nice 19')
    if (own === 0) {
      const normal = await worker(['--nice', '0'])
      expect(new Set(niceOf(normal.process.pid!))).toEqual(new Set([0]))
    }
  }, 60_000)

  it('resumes on a second worker the run of a worker killed mid-run, from its committed steps', async () => {
    slowStepB(3_000)
    const { url, web, worker } = await webOnly()
    const first = await worker()
    const runId = await startRun(web)
    await waitFor(() => asked('b') > 0, 20_000, 'step b to be called')
    const aBefore = await query<{ output: unknown }>(url, `select output from step_runs where run_id = $1 and node_id = 'a'`, [runId])
    await first.stop('SIGKILL')
    slowStepB(20)
    await worker()
    const ended = await runWhen(web, runId, run => run.status === 'succeeded', 30_000, 'the run to succeed on the second worker')
    expect(ended.output).toBe('answer to c')
    // Step a had committed: it was not asked again, and its output is unchanged; b, cut off, was asked again.
    expect(asked('a')).toBe(1)
    expect(asked('b')).toBe(2)
    expect(asked('c')).toBe(1)
    expect(await query(url, `select output from step_runs where run_id = $1 and node_id = 'a'`, [runId])).toEqual(aBefore)
  }, 60_000)

  it('drains on SIGTERM: finishes the run under way, takes no new one, exits 0', async () => {
    slowStepB(2_000)
    const { web, worker } = await webOnly()
    const draining = await worker()
    const runId = await startRun(web)
    await waitFor(() => asked('b') > 0, 20_000, 'step b to be called')
    draining.process.kill('SIGTERM')
    await waitFor(() => draining.output().includes('SIGTERM'), 5_000, 'the worker to hear SIGTERM')
    const later = await startRun(web)
    expect(await draining.exited).toBe(0)
    const ended = await runWhen(web, runId, run => run.status !== 'running' && run.status !== 'queued', 5_000, 'the first run to end')
    expect(ended.status).toBe('succeeded')
    expect(asked('b')).toBe(1)
    expect((await web.api(`/api/runs/${later}`)).body.status).toBe('queued')
    await worker()
    expect((await runWhen(web, later, run => run.status === 'succeeded', 30_000, 'the later run to succeed on another worker')).output).toBe('answer to c')
  }, 60_000)

  it('cancels from the server a run a worker is executing', async () => {
    slowStepB(20_000)
    const { web, worker } = await webOnly()
    await worker()
    const runId = await startRun(web)
    await waitFor(() => asked('b') > 0, 20_000, 'step b to be called')
    const { status } = await web.api(`/api/runs/${runId}/cancel`, { method: 'POST' })
    expect(status).toBe(202)
    expect((await runWhen(web, runId, run => run.status === 'cancelled', 10_000, 'the run to be cancelled')).status).toBe('cancelled')
  }, 60_000)

  it('cancels at once a run no worker has taken yet; a worker started after never executes it', async () => {
    slowStepB(20)
    const { url, web, worker } = await webOnly()
    const runId = await startRun(web)
    const { status } = await web.api(`/api/runs/${runId}/cancel`, { method: 'POST' })
    expect(status).toBe(202)
    expect((await web.api(`/api/runs/${runId}`)).body).toMatchObject({ status: 'cancelled', error: { code: 'CANCELLED' } })
    await worker()
    // A run started after it goes through the same queue: once it has ended, the cancelled one's turn has passed.
    const later = await startRun(web)
    expect((await runWhen(web, later, run => run.status === 'succeeded', 30_000, 'the later run to succeed')).output).toBe('answer to c')
    expect(asked('a')).toBe(1)
    expect(await query(url, 'select node_id from step_runs where run_id = $1', [runId])).toEqual([])
    expect((await web.api(`/api/runs/${runId}`)).body.status).toBe('cancelled')
    expect((await web.api(`/api/runs/${runId}/cancel`, { method: 'POST' })).status).toBe(409)
  }, 60_000)

  it('deletes a workflow whose run a worker is executing: the run stops, cancelled, before the workflow and its runs go', async () => {
    slowStepB(20_000)
    const { web, worker } = await webOnly()
    const executing = await worker()
    const { body: wf } = await web.api('/api/workflows', { body: workflow })
    const { body: run } = await web.api(`/api/workflows/${wf.id}/runs`, { body: {} })
    await waitFor(() => asked('b') > 0, 20_000, 'step b to be called')
    const streamed = readSse(`${web.url}/api/runs/${run.id}/events`, {}, 20_000)
    await new Promise(resolve => setTimeout(resolve, 200))
    const deleted = await web.api(`/api/workflows/${wf.id}`, { method: 'DELETE' })
    expect(deleted.status).toBe(204)
    expect((await streamed).at(-1)).toMatchObject({ event: 'run.finished', data: { result: { status: 'cancelled' } } })
    expect((await web.api(`/api/runs/${run.id}`)).status).toBe(404)
    // The worker stopped it: no later step is asked for, and it wrote nothing after the rows were gone.
    await new Promise(resolve => setTimeout(resolve, 1_000))
    expect(asked('c')).toBe(0)
    expect(executing.output()).not.toContain('write failed')
  }, 60_000)
})
