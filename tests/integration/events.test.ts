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

  it('refuses a client more than 20 open event streams (run and round alike) with a 429 saying why; closing one makes room', async () => {
    fake.reset()
    fake.onRequest(() => ({ text: 'slowly', delayMs: 4000 }))
    const slow = { name: 'slow', nodes: [{ id: 'a', type: 'llm', config: { model: 'anthropic:claude-x', prompt: 'a long answer, not cached' } }], edges: [] }
    const { body: wf } = await server.api('/api/workflows', { body: slow })
    const { body: run } = await server.api(`/api/workflows/${wf.id}/runs`, { body: {} })
    const { body: experiment } = await server.api('/api/experiments', { body: {
      name: 'streams', target: { workflow_id: wf.id, node: 'a' }, variants: [{ id: 'v' }], current_best: 'v', runs_per_document: 1, judge_model: 'local:heuristic',
      documents: [{ id: 'd', text: 'text', problems: [{ id: 'P', category: 'main', criteria: 'anything' }] }],
    } })
    expect((await server.api(`/api/experiments/${experiment.id}/rounds`, { method: 'POST' })).status).toBe(202)
    const runEvents = `${server.url}/api/runs/${run.id}/events`
    const roundEvents = `${server.url}/api/experiments/${experiment.id}/rounds/1/events`
    // Open streams are kept referenced: a response that is collected closes its connection.
    const open: Array<{ controller: AbortController, response: Response }> = []
    const follow = async (url: string) => {
      const controller = new AbortController()
      const response = await fetch(url, { signal: controller.signal })
      if (response.status === 200) open.push({ controller, response })
      return response
    }
    try {
      for (let i = 0; i < 20; i++) expect((await follow(i % 2 ? runEvents : roundEvents)).status).toBe(200)
      for (const url of [runEvents, roundEvents]) {
        const refused = await follow(url)
        expect(refused.status).toBe(429)
        expect((await refused.json()).message).toMatch(/^20 event streams are already open from \S+, the most one client may hold \(JUDGEFLOW_MAX_SSE_PER_CLIENT, 20\)\. Close some/)
      }
      open.shift()!.controller.abort()
      await waitFor(async () => (await follow(runEvents)).status === 200, 5000, 'a stream to be let in once one closed')
    }
    finally {
      for (const { controller } of open) controller.abort()
    }
  })

  it('is 404 for an unknown run', async () => {
    expect((await server.api('/api/runs/unknown/events')).status).toBe(404)
  })
})
