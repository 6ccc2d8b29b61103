import { hostname } from 'node:os'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { lastUserText } from '../support/fake-llm'
import { useServersWithFakeLLM, waitFor } from '../support/app-server'
import { startPostgres, type TestPostgres } from '../support/postgres'
import { runWhen } from '../support/runs'
import { llmChain } from '../support/workflows'

const { fake, start } = useServersWithFakeLLM({ beforeAll, afterAll })
let postgres: TestPostgres
beforeAll(async () => { postgres = await startPostgres() })
afterAll(async () => postgres?.stop())

const workflow = llmChain(['a', 'b', 'c'])
const stepsAsked = (step: string) => fake.requests.filter(r => lastUserText(r).startsWith(`step ${step}`)).length

/** A server on a new PostgreSQL database starts a run of `workflow` and is SIGKILLed once step b has been asked. */
async function killedAtStepB(env: Record<string, string> = {}) {
  const url = await postgres.database()
  const first = await start({ env: { ...fake.env(), JUDGEFLOW_DATABASE_URL: url, ...env } })
  const { body: wf } = await first.api('/api/workflows', { body: workflow })
  const { body: run } = await first.api(`/api/workflows/${wf.id}/runs`, { body: {} })
  await waitFor(() => stepsAsked('b') > 0, 10_000, 'step b to be called')
  await first.stop('SIGKILL')
  return { url, workflowId: wf.id as string, runId: run.id as string }
}

/** What a server started on `url` said before it exited (it may listen for a moment before its first query fails). */
async function refusedStart(url: string): Promise<string> {
  try {
    const server = await start({ env: { JUDGEFLOW_DATABASE_URL: url } })
    await waitFor(() => server.process.exitCode !== null, 10_000, 'the server to exit')
    expect(server.process.exitCode).toBe(1)
    return server.output()
  }
  catch (error) {
    return (error as Error).message
  }
}

async function query(url: string, text: string, values: unknown[] = []) {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    return (await client.query(text, values)).rows
  }
  finally {
    await client.end()
  }
}

describe('PostgreSQL mode (JUDGEFLOW_DATABASE_URL)', () => {
  it('keeps everything in PostgreSQL, and resumes a run killed with SIGKILL from its committed steps', async () => {
    fake.reset()
    fake.onRequest(request => ({ text: `answer to ${lastUserText(request).split(' ')[1]}`, delayMs: lastUserText(request).startsWith('step b') ? 1500 : 20 }))
    const { url, workflowId, runId } = await killedAtStepB()
    expect(await query(url, 'select node_id, status from step_runs where run_id = $1 order by id', [runId]))
      .toEqual([{ node_id: 'a', status: 'succeeded' }, { node_id: 'b', status: 'running' }])

    const second = await start({ env: { ...fake.env(), JUDGEFLOW_DATABASE_URL: url } })
    const done = await runWhen(second, runId, body => body.status === 'succeeded', 15_000, 'the resumed run to finish')
    expect(done.output).toBe('answer to c')
    expect(done.steps.a.output.text).toBe('answer to a')
    expect([stepsAsked('a'), stepsAsked('b'), stepsAsked('c')]).toEqual([1, 2, 1])
    expect(second.output()).toContain('resumed 1 run(s)')
    expect((await second.api(`/api/workflows/${workflowId}`)).body).toMatchObject({ id: workflowId, name: workflow.name })
  })

  it('lets a person mark interrupted a run whose holder stopped renewing its lease, and refuses while the lease holds', async () => {
    fake.reset()
    fake.onRequest(request => ({ text: 'x', delayMs: lastUserText(request).startsWith('step b') ? 5000 : 20 }))
    const { url, runId } = await killedAtStepB()
    // The killed process's pid still answers (a zombie, a reused pid): here it is this test process's.
    const owner = `${hostname()}:${process.pid}:killed`
    const expiresAt = Date.now() + 4000
    await query(url, 'update runs set lease_owner = $1 where id = $2', [owner, runId])
    await query(url, 'insert into lease_owners (owner, expires_at) values ($1, $2) on conflict (owner) do update set expires_at = excluded.expires_at', [owner, expiresAt])
    const second = await start({ env: { ...fake.env(), JUDGEFLOW_DATABASE_URL: url, JUDGEFLOW_RUN_LEASE_MS: '60000' } })
    const refused = await second.api(`/api/runs/${runId}/cancel`, { method: 'POST' })
    expect(refused.status).toBe(409)
    expect(refused.body.message).toContain('is being executed by another judgeflow process (its lease holds until')
    await waitFor(() => Date.now() > expiresAt, 10_000, 'the lease to expire')
    const marked = await second.api(`/api/runs/${runId}/cancel`, { method: 'POST' })
    expect(marked).toMatchObject({ status: 200, body: { id: runId, status: 'interrupted' } })
    const { body } = await second.api(`/api/runs/${runId}`)
    expect(body.error.message).toBe(`the run was marked interrupted by a person: its process (${hostname()}:${process.pid}) is gone or stopped renewing its lease`)
  })

  it('stops at start with a sentence naming the variable when the URL is not a PostgreSQL one, or its database cannot be reached', async () => {
    expect(await refusedStart('mysql://localhost/judgeflow')).toContain('judgeflow: refusing to start: JUDGEFLOW_DATABASE_URL must be a PostgreSQL URL')
    expect(await refusedStart('postgres://judgeflow:judgeflow@127.0.0.1:1/judgeflow'))
      .toContain('judgeflow: refusing to start: could not connect to the PostgreSQL database of JUDGEFLOW_DATABASE_URL: connect ECONNREFUSED')
  })
})
