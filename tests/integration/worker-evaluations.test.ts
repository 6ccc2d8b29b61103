import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { startAppServer, type AppServer } from '../support/app-server'
import { startPostgres, type TestPostgres } from '../support/postgres'
import { runWhen } from '../support/runs'
import { startWorker, type WorkerProcess } from '../support/workers'

let postgres: TestPostgres
beforeAll(async () => { postgres = await startPostgres() }, 60_000)
afterAll(async () => postgres?.stop())

const workers: WorkerProcess[] = []
const servers: AppServer[] = []
afterEach(async () => {
  for (const worker of workers.splice(0)) await worker.stop('SIGKILL')
  for (const server of servers.splice(0)) await server.stop('SIGKILL')
})

/** A custom scorer that never returns on "spin" (only terminating its thread stops it), and scores anything else 1. */
function spinScorers(): string {
  const folder = mkdtempSync(join(tmpdir(), 'judgeflow-scorers-'))
  writeFileSync(join(folder, 'spin.mjs'), 'export default { type: \'spin\', score(actual) { while (actual === \'spin\') {} return 1 } }\n')
  return folder
}

const workflow = {
  name: 'spin gate',
  nodes: [
    { id: 'in', type: 'input', config: {} },
    { id: 'judge', type: 'evaluator', config: { evaluation_type: 'scorers', scorers: [{ type: 'spin' }], actual: '{{input.text}}' } },
  ],
  edges: [{ from: 'in', to: 'judge' }],
}

describe('offline evaluations on a judgeflow worker (PostgreSQL)', () => {
  it('stops an evaluation past JUDGEFLOW_EVAL_TIME_LIMIT_MS, fails its step naming the variable, and executes the next run', async () => {
    const url = await postgres.database()
    const env = { JUDGEFLOW_SCORERS_DIR: spinScorers(), JUDGEFLOW_EVAL_TIME_LIMIT_MS: '1000' }
    const web = await startAppServer({ env: { ...env, JUDGEFLOW_DATABASE_URL: url, JUDGEFLOW_WORKER: '0' } })
    servers.push(web)
    // Started from a folder with no node_modules: the worker threads find their loader all the same.
    const worker = await startWorker(url, env, ['--concurrency', '1'], mkdtempSync(join(tmpdir(), 'judgeflow-cwd-')))
    workers.push(worker)
    const { body: wf } = await web.api('/api/workflows', { body: workflow })
    const spinning = await web.api(`/api/workflows/${wf.id}/runs`, { body: { input: { text: 'spin' } } })
    const next = await web.api(`/api/workflows/${wf.id}/runs`, { body: { input: { text: 'fine' } } })
    expect([spinning.status, next.status]).toEqual([202, 202])

    const stopped = await runWhen(web, spinning.body.id, run => run.status === 'failed', 30_000, 'the spinning run to fail')
    const judge = stopped.steps.judge
    expect(judge).toMatchObject({ status: 'failed' })
    expect(JSON.stringify(judge)).toContain('did not finish within the time limit of 1000 ms and was stopped')
    expect(JSON.stringify(judge)).toContain('raise JUDGEFLOW_EVAL_TIME_LIMIT_MS')
    expect((await runWhen(web, next.body.id, run => run.status === 'succeeded', 30_000, 'the next run to succeed')).status).toBe('succeeded')
    // The worker went on by itself: no lease ran out, nothing was taken over.
    expect(worker.output()).not.toContain('took over')
  }, 90_000)
})
