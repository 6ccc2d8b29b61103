import Database from 'better-sqlite3'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { FakeLLM, lastUserText } from '../support/fake-llm'
import { startAppServer, tempDbPath, waitFor, type AppServer } from '../support/app-server'
import { llmChain } from '../support/workflows'

const fake = new FakeLLM()
const servers: AppServer[] = []
beforeAll(async () => { await fake.start() })
afterAll(async () => {
  for (const s of servers) await s.stop('SIGKILL')
  await fake.stop()
})

const workflow = llmChain(['a', 'b', 'c'])

describe('crash safety', () => {
  it('resumes a run killed with SIGKILL from its committed steps', async () => {
    fake.onRequest(request => ({ text: `answer to ${lastUserText(request).split(' ')[1]}`, delayMs: lastUserText(request).startsWith('step b') ? 1500 : 20 }))
    const dbPath = tempDbPath()
    const first = await startAppServer({ dbPath, env: fake.env() })
    servers.push(first)
    const { body: wf } = await first.api('/api/workflows', { body: workflow })
    const { body: run } = await first.api(`/api/workflows/${wf.id}/runs`, { body: {} })
    await waitFor(() => fake.requests.some(r => lastUserText(r).startsWith('step b')), 10_000, 'step b to be called')
    await first.stop('SIGKILL')

    const db = new Database(dbPath, { readonly: true })
    const committed = db.prepare('select node_id, status from step_runs where run_id = ? order by id').all(run.id)
    expect(db.prepare('select status from runs where id = ?').get(run.id)).toEqual({ status: 'running' })
    db.close()
    expect(committed).toEqual([{ node_id: 'a', status: 'succeeded' }, { node_id: 'b', status: 'running' }])

    const second = await startAppServer({ dbPath, env: fake.env() })
    servers.push(second)
    const done = await waitFor(async () => {
      const { body } = await second.api(`/api/runs/${run.id}`)
      return body.status === 'succeeded' && body
    }, 15_000, 'the resumed run to finish')
    expect(done.output).toBe('answer to c')
    expect(done.steps.a.output.text).toBe('answer to a')
    const calls = fake.requests.map(r => lastUserText(r).split(' ').slice(0, 2).join(' '))
    expect(calls.filter(c => c === 'step a')).toHaveLength(1)
    expect(calls.filter(c => c === 'step b')).toHaveLength(2)
    expect(calls.filter(c => c === 'step c')).toHaveLength(1)
    expect(second.output()).toContain('resumed 1 run(s)')
    const check = new Database(dbPath, { readonly: true })
    expect(check.pragma('integrity_check', { simple: true })).toBe('ok')
    check.close()
  })

  it('marks a run interrupted, with the reason, when it cannot be resumed', async () => {
    const dbPath = tempDbPath()
    const first = await startAppServer({ dbPath, env: fake.env() })
    servers.push(first)
    fake.reset()
    fake.onRequest(() => ({ text: 'x', delayMs: 5000 }))
    const { body: wf } = await first.api('/api/workflows', { body: workflow })
    const { body: run } = await first.api(`/api/workflows/${wf.id}/runs`, { body: {} })
    await waitFor(() => fake.requests.length > 0, 5000, 'the first call')
    await first.stop('SIGKILL')
    const second = await startAppServer({ dbPath, env: { OPENAI_BASE_URL: fake.openaiBaseURL } })
    servers.push(second)
    const body = await waitFor(async () => {
      const { body } = await second.api(`/api/runs/${run.id}`)
      return body.status !== 'running' && body
    }, 5000, 'the run to be marked')
    expect(body.status).toBe('interrupted')
    expect(body.error.message).toBe('the run could not be resumed after a restart: OPENAI_API_KEY is not set: node "a" uses openai:gpt-4o-mini. Set it in the environment, or pin this step\'s output to run offline.')
  })
})
