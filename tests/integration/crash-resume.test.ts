import { hostname } from 'node:os'
import Database from 'better-sqlite3'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { lastUserText } from '../support/fake-llm'
import { readSse, useServersWithFakeLLM, waitFor } from '../support/app-server'
import { runWhen } from '../support/runs'
import { serverStores, stopServerStores, type ServerStore } from '../support/server-stores'
import { llmChain } from '../support/workflows'

const { fake, start } = useServersWithFakeLLM({ beforeAll, afterAll })
afterAll(stopServerStores)

const workflow = llmChain(['a', 'b', 'c'])
const asksStepB = () => fake.requests.some(r => lastUserText(r).startsWith('step b'))

describe.each(serverStores)('crash safety on $name', (store: ServerStore) => {
  const startAt = (location: string, env: Record<string, string>) => start(store.at(location, env))

  /** A server on a new database starts a run of `workflow` and is SIGKILLed once step b has been asked and its start committed. */
  async function killedAtStepB(env: Record<string, string> = fake.env(), stepBAsked = asksStepB) {
    const location = await store.create()
    const first = await startAt(location, env)
    const { body: wf } = await first.api('/api/workflows', { body: workflow })
    const { body: run } = await first.api(`/api/workflows/${wf.id}/runs`, { body: {} })
    await waitFor(stepBAsked, 10_000, 'step b to be called')
    // And once step b's start is committed: a step's start is written with its end, or alone
    // START_HELD_MS after it began (step b takes longer).
    await waitFor(async () => (await store.query(location, 'select node_id from step_runs where run_id = $1 and node_id = $2', [run.id, 'b'])).length > 0, 5_000, 'step b\'s start to be committed')
    await first.stop('SIGKILL')
    return { location, runId: run.id as string, workflowId: wf.id as string }
  }

  /**
   * The killed process's pid still answers (a zombie nobody reaped, or a pid reused): here it is this
   * test process's pid, holding the run's lease until `expiresAt`.
   */
  async function holdByLiveLookingProcess(location: string, runId: string, expiresAt: number): Promise<void> {
    const owner = `${hostname()}:${process.pid}:killed`
    await store.query(location, 'update runs set lease_owner = $1 where id = $2', [owner, runId])
    await store.query(location, 'insert into lease_owners (owner, expires_at) values ($1, $2) on conflict (owner) do update set expires_at = excluded.expires_at', [owner, expiresAt])
  }

  it('resumes a run killed with SIGKILL from its committed steps', async () => {
    fake.reset()
    fake.onRequest(request => ({ text: `answer to ${lastUserText(request).split(' ')[1]}`, delayMs: lastUserText(request).startsWith('step b') ? 1500 : 20 }))
    const { location, runId, workflowId } = await killedAtStepB()
    const run = { id: runId }

    expect(await store.query(location, 'select status from runs where id = $1', [run.id])).toEqual([{ status: 'running' }])
    expect(await store.query(location, 'select node_id, status from step_runs where run_id = $1 order by id', [run.id]))
      .toEqual([{ node_id: 'a', status: 'succeeded' }, { node_id: 'b', status: 'running' }])

    const second = await startAt(location, fake.env())
    const done = await runWhen(second, run.id, body => body.status === 'succeeded', 15_000, 'the resumed run to finish')
    expect(done.output).toBe('answer to c')
    expect(done.steps.a.output.text).toBe('answer to a')
    const calls = fake.requests.map(r => lastUserText(r).split(' ').slice(0, 2).join(' '))
    expect(calls.filter(c => c === 'step a')).toHaveLength(1)
    expect(calls.filter(c => c === 'step b')).toHaveLength(2)
    expect(calls.filter(c => c === 'step c')).toHaveLength(1)
    expect(second.output()).toContain('resumed 1 run(s)')
    expect((await second.api(`/api/workflows/${workflowId}`)).body).toMatchObject({ id: workflowId, name: workflow.name })
    if (store.name === 'SQLite') {
      // A SIGKILL mid-write leaves the SQLite file whole.
      const check = new Database(location, { readonly: true })
      expect(check.pragma('integrity_check', { simple: true })).toBe('ok')
      check.close()
    }
  })

  it('marks a run interrupted, with the reason, when it cannot be resumed', async () => {
    const location = await store.create()
    const first = await startAt(location, fake.env())
    fake.reset()
    fake.onRequest(() => ({ text: 'x', delayMs: 5000 }))
    const { body: wf } = await first.api('/api/workflows', { body: workflow })
    const { body: run } = await first.api(`/api/workflows/${wf.id}/runs`, { body: {} })
    await waitFor(() => fake.requests.length > 0, 5000, 'the first call')
    await first.stop('SIGKILL')
    const second = await startAt(location, { OPENAI_BASE_URL: fake.openaiBaseURL })
    const body = await runWhen(second, run.id, body => body.status !== 'running', 5000, 'the run to be marked')
    expect(body.status).toBe('interrupted')
    expect(body.error.message).toBe('the run could not be resumed after a restart: OPENAI_API_KEY is not set: node "a" uses openai:gpt-4o-mini. Set it in the environment, or pin this step\'s output to run offline.')
  })

  it('resumes a run whose killed process still looks alive (a zombie, a reused pid) once its lease has expired', async () => {
    fake.reset()
    const asked: Array<{ step: string, at: number }> = []
    fake.onRequest((request) => {
      const step = lastUserText(request).split(' ')[1]!
      asked.push({ step, at: Date.now() })
      return { text: `answer to ${step}`, delayMs: step === 'b' && asked.filter(a => a.step === 'b').length === 1 ? 1500 : 20 }
    })
    const env = { ...fake.env(), JUDGEFLOW_RUN_LEASE_MS: '1500' }
    const { location, runId } = await killedAtStepB(env, () => asked.some(a => a.step === 'b'))
    const run = { id: runId }
    const expiresAt = Date.now() + 3000
    await holdByLiveLookingProcess(location, run.id, expiresAt)

    const second = await startAt(location, env)
    const done = await runWhen(second, run.id, body => body.status === 'succeeded', 20_000, 'the run to be resumed after its lease expired')
    expect(done.output).toBe('answer to c')
    const calls = asked.map(a => a.step)
    expect(calls).toEqual(['a', 'b', 'b', 'c'])
    // Not before the lease it was held by had expired.
    expect(asked[2]!.at).toBeGreaterThanOrEqual(expiresAt)
    expect(second.output()).toContain('resumed 1 run(s)')
  })

  it('lets a person mark interrupted a run that no live process holds, and refuses while another one holds its lease', async () => {
    fake.reset()
    fake.onRequest(request => ({ text: 'x', delayMs: lastUserText(request).startsWith('step b') ? 5000 : 20 }))
    const { location, runId } = await killedAtStepB()
    const run = { id: runId }
    const expiresAt = Date.now() + 5000
    await holdByLiveLookingProcess(location, run.id, expiresAt)
    // A long lease here: this server looks for expired leases only every 20 s, so the run stays orphaned.
    const second = await startAt(location, { ...fake.env(), JUDGEFLOW_RUN_LEASE_MS: '60000' })

    const refused = await second.api(`/api/runs/${run.id}/cancel`, { method: 'POST' })
    expect(refused.status).toBe(409)
    expect(refused.body.message).toContain('is being executed by another judgeflow process (its lease holds until')
    // The page follows the run as it does any running run, and offers Cancel.
    const following = readSse(`${second.url}/api/runs/${run.id}/events`, {}, 20_000)
    await waitFor(() => Date.now() > expiresAt, 10_000, 'the lease to expire')
    const marked = await second.api(`/api/runs/${run.id}/cancel`, { method: 'POST' })
    expect(marked).toMatchObject({ status: 200, body: { id: run.id, status: 'interrupted' } })
    const events = await following
    expect(events.at(-1)).toMatchObject({ event: 'run.finished', data: { result: { status: 'interrupted' } } })
    const { body } = await second.api(`/api/runs/${run.id}`)
    expect(body.status).toBe('interrupted')
    expect(body.error.message).toBe(`the run was marked interrupted by a person: its process (${hostname()}:${process.pid}) is gone or stopped renewing its lease`)
    const again = await second.api(`/api/runs/${run.id}/cancel`, { method: 'POST' })
    expect(again.status).toBe(409)
    expect(again.body.message).toContain('is interrupted and cannot be cancelled')
  })

  it('marks a run failed, with the reason, after two resumes in a row that committed no new step', async () => {
    fake.reset()
    // Step b never answers in time: each process executing the run is killed while waiting for it.
    fake.onRequest(request => ({ text: 'x', delayMs: lastUserText(request).startsWith('step b') ? 8000 : 20 }))
    const stepB = () => fake.requests.filter(r => lastUserText(r).startsWith('step b')).length
    const location = await store.create()
    let server = await startAt(location, fake.env())
    const { body: wf } = await server.api('/api/workflows', { body: workflow })
    const { body: run } = await server.api(`/api/workflows/${wf.id}/runs`, { body: {} })
    for (let kill = 1; kill <= 3; kill++) {
      await waitFor(() => stepB() === kill, 10_000, `step b, call ${kill}`)
      await server.stop('SIGKILL')
      server = await startAt(location, fake.env())
    }
    const failed = await runWhen(server, run.id, body => body.status !== 'running', 10_000, 'the run to be given up')
    expect(failed.status).toBe('failed')
    expect(failed.error).toMatchObject({ code: 'RESUME_LIMIT' })
    expect(failed.error.message).toContain('the run was resumed 2 times after a restart without committing a new step')
    expect(failed.steps.a.status).toBe('succeeded')
    expect(stepB()).toBe(3)
    expect(server.output()).toContain('marked 1 failed after resumes without progress (JUDGEFLOW_RUN_MAX_RESUMES)')
  })
})
