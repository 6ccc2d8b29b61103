import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { useAppWithFakeLLM, waitFor, type AppServer } from '../support/app-server'

const app = useAppWithFakeLLM({ beforeAll, afterAll })
const { fake } = app
let server: AppServer
beforeAll(() => { server = app.server })

const live = {
  name: 'Live keys',
  nodes: [
    { id: 'in', type: 'input', config: {} },
    { id: 'a', type: 'llm', config: { model: 'openai:gpt-4o-mini', prompt: 'Say hi' } },
    { id: 'b', type: 'llm', config: { model: 'anthropic:claude-sonnet-4-5-20250929', prompt: 'Say hi' } },
    // After both calls: the judge fails here (the fake answers it no JSON), and a run that fails stops the steps still going.
    { id: 'judge', type: 'evaluator', config: { evaluation_type: 'scoring', model: 'openai:gpt-4o-mini', content: '{{steps.a.text}} {{steps.b.text}}' } },
  ],
  edges: [{ from: 'in', to: 'a' }, { from: 'in', to: 'b' }, { from: 'a', to: 'judge' }, { from: 'b', to: 'judge' }],
}

describe('no secret leaves the environment', () => {
  it('after runs with keys set, and a provider error quoting the key, no key is in the database, the logs or any API response', async () => {
    const keys = [fake.env().OPENAI_API_KEY!, fake.env().ANTHROPIC_API_KEY!]
    const responses: string[] = []
    const call = async (path: string, init?: Parameters<AppServer['api']>[1]) => {
      const result = await server.api(path, init)
      const headers: string[] = []
      result.headers.forEach((value, name) => headers.push(`${name}: ${value}`))
      responses.push(JSON.stringify(result.body), headers.join('\n'))
      return result
    }
    const { body: workflow } = await call('/api/workflows', { method: 'POST', body: live })
    const ok = await call(`/api/workflows/${workflow.id}/runs`, { method: 'POST', body: {} })
    await waitFor(async () => ['succeeded', 'failed'].includes((await call(`/api/runs/${ok.body.id}`)).body.status) || undefined, 15_000, 'the run')
    // The provider answers 401 and echoes the key, as real providers do.
    fake.script({ status: 401, body: JSON.stringify({ error: { message: `Incorrect API key provided: ${keys[0]}`, type: 'invalid_request_error' } }) })
    const bad = await call(`/api/workflows/${workflow.id}/runs`, { method: 'POST', body: { options: { cache: false } } })
    const failed = await waitFor(async () => {
      const { body } = await call(`/api/runs/${bad.body.id}`)
      return ['succeeded', 'failed'].includes(body.status) ? body : undefined
    }, 15_000, 'the failing run')
    expect(failed.status).toBe('failed')
    expect(JSON.stringify(failed.error)).toContain('Incorrect API key provided')
    for (const path of ['/api/workflows', `/api/workflows/${workflow.id}/runs`, '/api/models', '/api/health', '/api/steps', '/api/evaluators']) await call(path)
    responses.push(await (await fetch(`${server.url}/api/runs/${bad.body.id}/events`)).text())
    // An evaluation whose judge call fails with the key in the provider's message: a 502 that must not repeat it.
    fake.script({ status: 401, body: JSON.stringify({ error: { message: `Incorrect API key provided: ${keys[0]}` } }) })
    const evaluated = await call('/api/evaluate', { method: 'POST', body: { config: { evaluation_type: 'scoring', model: 'openai:gpt-4o-mini', cache: false }, input: { content: 'x' } } })
    expect(evaluated.status).toBe(502)
    expect(evaluated.body.message).toContain('Incorrect API key provided')

    const folder = dirname(server.dbPath)
    const files = readdirSync(folder).filter(f => f.startsWith('judgeflow.db')).map(f => readFileSync(join(folder, f)).toString('latin1'))
    expect(files.length).toBeGreaterThanOrEqual(1)
    for (const key of keys) {
      expect(files.some(bytes => bytes.includes(key)), `the database holds ${key.slice(0, 8)}…`).toBe(false)
      expect(server.output().includes(key), 'the logs hold a key').toBe(false)
      expect(responses.some(text => text.includes(key)), 'an API response holds a key').toBe(false)
    }
    // The keys did reach the provider, where they belong.
    expect(fake.requests.some(r => r.headers.authorization === `Bearer ${keys[0]}`)).toBe(true)
    expect(fake.requests.some(r => r.api === 'anthropic' && [r.headers['x-api-key'], r.headers.authorization].some(h => h === keys[1] || h === `Bearer ${keys[1]}`))).toBe(true)
  })
})
