import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openSse, useAppWithFakeLLM, waitFor, type AppServer } from '../support/app-server'
import { runEndedOn } from '../support/runs'
import { serverStores, stopServerStores } from '../support/server-stores'
import { qualityGate } from '../support/workflows'

afterAll(stopServerStores)

// The same API on either store: a server on a SQLite file, and one on a PostgreSQL database
// (its runs executed by the worker that `serve` starts beside the web server).
describe.each(serverStores)('on $name', (store) => {
  const app = useAppWithFakeLLM({ beforeAll, afterAll }, async env => store.at(await store.create(), env))
  const { fake } = app
  let server: AppServer
  beforeAll(() => { server = app.server })

  const finished = (id: string) => runEndedOn(server, id, 10_000)

  describe('workflows API', () => {
    it('creates, lists, gets, updates (new version), exports, imports and deletes', async () => {
      const created = await server.api('/api/workflows', { body: qualityGate(['a'], [true]) })
      expect(created.status).toBe(201)
      expect(created.body).toMatchObject({ name: 'Quality gate', version: 1, problems: [] })
      const id = created.body.id as string

      const list = await server.api('/api/workflows')
      expect(list.body.map((w: { id: string }) => w.id)).toContain(id)

      const changed = { ...qualityGate(['b'], [true]), name: 'Quality gate v2' }
      const updated = await server.api(`/api/workflows/${id}`, { method: 'PUT', body: changed })
      expect(updated.body).toMatchObject({ version: 2, name: 'Quality gate v2' })
      expect((await server.api(`/api/workflows/${id}?version=1`)).body.name).toBe('Quality gate')

      const exported = await server.api(`/api/workflows/${id}/export`)
      expect(exported.headers.get('content-disposition')).toBe('attachment; filename="Quality-gate-v2.json"')
      expect(exported.body).toEqual(changed)
      const imported = await server.api('/api/workflows/import', { body: exported.body })
      expect(imported.status).toBe(201)
      expect(imported.body.id).not.toBe(id)

      expect((await server.api(`/api/workflows/${id}`, { method: 'DELETE' })).status).toBe(204)
      expect((await server.api(`/api/workflows/${id}`)).status).toBe(404)
    })

    it('deletes a workflow whose run is going on: the run is cancelled, its stream ends with run.finished, its runs go with it', async () => {
      fake.reset()
      fake.onRequest(() => (fake.requests.length === 1 ? { text: 'quick' } : { text: 'late', delayMs: 20_000 }))
      const { body: wf } = await server.api('/api/workflows', { body: { name: 'held', nodes: [{ id: 'ask', type: 'llm', config: { model: 'openai:gpt-4o-mini', prompt: 'wait' } }] } })
      const { body: done } = await server.api(`/api/workflows/${wf.id}/runs`, { body: {} })
      expect((await finished(done.id)).status).toBe('succeeded')
      const { body: run } = await server.api(`/api/workflows/${wf.id}/runs`, { body: {} })
      await waitFor(() => fake.requests.length === 2, 5000, 'the held call')
      const stream = await openSse(`${server.url}/api/runs/${run.id}/events`)
      expect(stream.status).toBe(200)

      expect((await server.api(`/api/workflows/${wf.id}`, { method: 'DELETE' })).status).toBe(204)
      const events = await stream.events
      expect(events.at(-1)).toMatchObject({ event: 'run.finished', data: { result: { status: 'cancelled' } } })
      await waitFor(() => fake.requests[1]!.aborted, 5000, 'the held call to be aborted')
      // The finished run and the cancelled one are deleted with their workflow, as before.
      expect((await server.api(`/api/runs/${run.id}`)).status).toBe(404)
      expect((await server.api(`/api/runs/${done.id}`)).status).toBe(404)
      expect((await server.api(`/api/workflows/${wf.id}`)).status).toBe(404)
      expect(server.output()).not.toMatch(/FOREIGN KEY|database write failed/i)
    })

    it('returns engine problems with node ids for a saved draft, and validates without saving', async () => {
      const draft = { name: 'draft', nodes: [{ id: 'x', type: 'llm', config: { prompt: '{{steps.nope.text}}' } }] }
      const saved = await server.api('/api/workflows', { body: draft })
      expect(saved.status).toBe(201)
      expect(saved.body.problems.map((p: { path: string }) => p.path)).toEqual(['nodes.x.config.model', 'nodes.x.config.prompt'])
      const checked = await server.api('/api/workflows/validate', { body: draft })
      expect(checked.body.ok).toBe(false)
      // Read again, the version's problems are the same; once saved fixed, the new version has none.
      const read = await server.api(`/api/workflows/${saved.body.id}`)
      expect(read.body.problems).toEqual(saved.body.problems)
      const fixed = { ...draft, nodes: [{ id: 'x', type: 'llm', config: { model: 'openai:gpt-4o-mini', prompt: 'Say hi' } }] }
      const put = await server.api(`/api/workflows/${saved.body.id}`, { method: 'PUT', body: fixed })
      expect(put.status).toBe(200)
      expect(put.body.problems).toEqual([])
      expect((await server.api(`/api/workflows/${saved.body.id}`)).body.problems).toEqual([])
      expect((await server.api(`/api/workflows/${saved.body.id}?version=1`)).body.problems).toEqual(saved.body.problems)
    })

    it('validate names each unknown key by its path and the nearest known key, at every depth', async () => {
      const wf = {
        name: 'gate',
        settings: { concurency: 2 },
        nodes: [
          { id: 'in', type: 'input', positon: { x: 0, y: 0 } },
          { id: 'judge', type: 'evaluator', config: { evaluation_type: 'criteria', content: '{{input.a}}', criteria: [{ name: 'accuracy', wieght: 1 }] } },
          { id: 'out', type: 'output', config: { verdikt: 'fail' } },
        ],
        edges: [{ from: 'in', to: 'judge', wen: 'true' }, { from: 'judge', to: 'out' }],
      }
      const shape = await server.api('/api/workflows/validate', { body: wf })
      expect(shape.body.ok).toBe(false)
      expect(shape.body.problems.map((p: { path: string, message: string }) => [p.path, p.message])).toEqual([
        ['nodes[0].positon', 'node "in": nodes[0]: unknown key "positon": did you mean "position"?'],
        ['edges[0].wen', 'edges[0]: unknown key "wen": did you mean "when"?'],
        ['settings.concurency', 'settings: unknown key "concurency": did you mean "concurrency"?'],
      ])
      const configs = await server.api('/api/workflows/validate', { body: { ...wf, settings: {}, nodes: [{ id: 'in', type: 'input' }, ...wf.nodes.slice(1)], edges: [{ from: 'in', to: 'judge' }, wf.edges[1]] } })
      expect(configs.body.problems.map((p: { path: string, message: string }) => [p.path, p.message])).toEqual([
        ['nodes.judge.config.criteria[0].wieght', 'node "judge": nodes.judge.config.criteria[0]: unknown key "wieght": did you mean "weight"?'],
        ['nodes.out.config.verdikt', 'node "out": nodes.out.config: unknown key "verdikt": did you mean "verdict"?'],
      ])
    })

    it('refuses a malformed body with 400 naming each field, unknown ids with 404, a huge body with 413', async () => {
      const bad = await server.api('/api/workflows', { body: { name: '', nodes: [{ id: '9', type: 'llm' }] } })
      expect(bad.status).toBe(400)
      expect(bad.body.data.problems.map((p: { path: string }) => p.path)).toEqual(['name', 'nodes[0].id'])
      expect((await server.api('/api/workflows', { body: '{not json' })).status).toBe(400)
      expect((await server.api('/api/runs/00000000-0000-0000-0000-000000000000')).status).toBe(404)
      expect((await server.api('/api/workflows/nope/runs', { body: {} })).status).toBe(404)
      const huge = await server.api('/api/workflows', { body: { name: 'x'.repeat(2 * 1024 * 1024), nodes: [] } })
      expect(huge.status).toBe(413)
    })
  })

  describe('runs API', () => {
    it('starts a run that answers at once and finishes in the background, with every step', async () => {
      const { body: wf } = await server.api('/api/workflows', { body: qualityGate(['one', 'two'], [false, true]) })
      const started = await server.api(`/api/workflows/${wf.id}/runs`, { body: { input: { question: 'Why?' } } })
      expect(started.status).toBe(202)
      expect(started.body).toMatchObject({ workflow_version: 1 })
      const run = await finished(started.body.id)
      expect(run).toMatchObject({ status: 'succeeded', verdict: 'pass', output: 'two', workflow_version: 1 })
      expect(run.steps.draft).toMatchObject({ status: 'succeeded', attempts: 2, output: { text: 'two' } })
      expect(run.steps.draft.history.map((h: { attempt: number }) => h.attempt)).toEqual([1, 2])
      expect(run.steps.draft.history[1].input.prompt).toContain('feedback 1')
      expect(run.steps.ko.status).toBe('skipped')
      const runs = await server.api(`/api/workflows/${wf.id}/runs`)
      expect(runs.body.map((r: { id: string }) => r.id)).toEqual([started.body.id])
    })

    it('runs an llm step through the provider, records usage, and caches temperature 0', async () => {
      fake.reset()
      fake.onRequest(() => ({ text: 'from the fake', usage: { input_tokens: 20, output_tokens: 5 } }))
      const workflow = { name: 'llm', nodes: [{ id: 'ask', type: 'llm', config: { model: 'openai:gpt-4o-mini', prompt: 'hello', temperature: 0 } }], edges: [] }
      const { body: wf } = await server.api('/api/workflows', { body: workflow })
      const first = await finished((await server.api(`/api/workflows/${wf.id}/runs`, { body: {} })).body.id)
      const second = await finished((await server.api(`/api/workflows/${wf.id}/runs`, { body: {} })).body.id)
      expect(first.steps.ask).toMatchObject({ output: { text: 'from the fake', cached: false }, usage: { input_tokens: 20, output_tokens: 5 }, cached: false })
      expect(second.steps.ask).toMatchObject({ output: { text: 'from the fake', cached: true }, cached: true })
      const third = await finished((await server.api(`/api/workflows/${wf.id}/runs`, { body: { options: { cache: false } } })).body.id)
      expect(third.steps.ask.cached).toBe(false)
      expect(fake.requests).toHaveLength(2)
    })

    it('refuses a run whose input is invalid (400 naming the variable) or whose key is missing', async () => {
      const { body: wf } = await server.api('/api/workflows', { body: qualityGate(['a'], [true]) })
      const bad = await server.api(`/api/workflows/${wf.id}/runs`, { body: { input: { question: 42 } } })
      expect(bad.status).toBe(400)
      expect(bad.body.message).toBe('input "question" must be a string, not number (node "in")')
    })

    it('cancels a running run', async () => {
      fake.reset()
      fake.onRequest(() => ({ text: 'slow', delayMs: 3000 }))
      const { body: wf } = await server.api('/api/workflows', { body: { name: 'slow', nodes: [{ id: 'ask', type: 'llm', config: { model: 'openai:gpt-4o-mini', prompt: 'wait' } }] } })
      const { body: run } = await server.api(`/api/workflows/${wf.id}/runs`, { body: {} })
      await waitFor(() => fake.requests.length > 0, 5000, 'the call to start')
      const cancel = await server.api(`/api/runs/${run.id}/cancel`, { method: 'POST' })
      expect(cancel.status).toBe(202)
      const done = await finished(run.id)
      expect(done.status).toBe('cancelled')
      expect(done.steps.ask.status).toBe('cancelled')
      expect((await server.api(`/api/runs/${run.id}/cancel`, { method: 'POST' })).status).toBe(409)
    })

    it('describes every step type for the editor', async () => {
      const { body } = await server.api('/api/steps')
      expect(body.map((s: { type: string }) => s.type)).toEqual(['input', 'llm', 'http', 'code', 'evaluator', 'condition', 'retry', 'output'])
      expect(body.find((s: { type: string }) => s.type === 'condition').branches).toEqual(['true', 'false'])
    })
  })
})
