import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { readSse, useAppWithFakeLLM, waitFor, type AppServer } from '../support/app-server'
import { qualityGate } from '../support/workflows'

const app = useAppWithFakeLLM({ beforeAll, afterAll })
const { fake } = app
let server: AppServer
beforeAll(() => { server = app.server })

describe('GET /api/runs/:id/events', () => {
  it('replays a finished run, and from Last-Event-ID only what came after', async () => {
    const { body: wf } = await server.api('/api/workflows', { body: qualityGate(['a', 'b'], [false, true]) })
    const { body: run } = await server.api(`/api/workflows/${wf.id}/runs`, { body: { input: { question: 'q' } } })
    await waitFor(async () => (await server.api(`/api/runs/${run.id}`)).body.status === 'succeeded', 10_000, 'the run')
    const all = await readSse(`${server.url}/api/runs/${run.id}/events`)
    expect(all[0]!.event).toBe('run.started')
    expect(all.at(-1)!.event).toBe('run.finished')
    expect(all.at(-1)!.data.result).toMatchObject({ status: 'succeeded', verdict: 'pass' })
    expect(all.map(e => e.id)).toEqual([...all.map(e => e.id)].sort((a, b) => a - b))
    const retrying = all.find(e => e.event === 'step.retrying')!
    expect(retrying.data).toMatchObject({ node_id: 'again', target: 'draft', attempt: 2 })
    const succeeded = all.find(e => e.event === 'step.succeeded')!
    expect(succeeded.data.step.duration_ms).toBeGreaterThanOrEqual(0)
    const rest = await readSse(`${server.url}/api/runs/${run.id}/events`, { 'last-event-id': String(all[4]!.id) })
    expect(rest.map(e => e.id)).toEqual(all.slice(5).map(e => e.id))
  })

  it('follows a live run to its end, after replaying what happened before connecting', async () => {
    fake.reset()
    fake.onRequest(() => ({ text: 'slowly', delayMs: 300 }))
    const workflow = {
      name: 'live',
      nodes: [
        { id: 'a', type: 'llm', config: { model: 'anthropic:claude-x', prompt: 'one' } },
        { id: 'b', type: 'llm', config: { model: 'anthropic:claude-x', prompt: 'two {{steps.a.text}}' } },
      ],
      edges: [{ from: 'a', to: 'b' }],
    }
    const { body: wf } = await server.api('/api/workflows', { body: workflow })
    const { body: run } = await server.api(`/api/workflows/${wf.id}/runs`, { body: {} })
    await waitFor(() => fake.requests.length === 1, 5000, 'the first call')
    const events = await readSse(`${server.url}/api/runs/${run.id}/events`)
    expect(events.map(e => `${e.event}:${e.data.node_id ?? e.data.step?.node_id ?? ''}`)).toEqual([
      'run.started:', 'step.started:a', 'step.succeeded:a', 'step.started:b', 'step.succeeded:b', 'run.finished:',
    ])
    expect(new Set(events.map(e => e.id)).size).toBe(events.length)
  })

  it('is 404 for an unknown run', async () => {
    expect((await server.api('/api/runs/unknown/events')).status).toBe(404)
  })
})
