import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { readSse, startAppServer, waitFor, type AppServer } from '../support/app-server'

let server: AppServer
beforeAll(async () => { server = await startAppServer() })
afterAll(async () => { await server?.stop() })

/** `levels` objects nested in one another around `leaf`, as JSON text (JSON.stringify itself recurses). */
const nested = (levels: number, leaf = '"x"') => `${'{"a":'.repeat(levels)}${leaf}${'}'.repeat(levels)}`
const as = (levels: number) => Array(levels).fill('a').join('.')
/** A workflow whose output value holds `value`, four levels below the top of the body. */
const workflowWith = (value: string) => `{"name":"deep","nodes":[{"id":"in","type":"input"},{"id":"out","type":"output","config":{"value":${value}}}],"edges":[{"from":"in","to":"out"}]}`
const post = (path: string, body: string, method = 'POST') => server.api(path, { method, body, headers: { 'content-type': 'application/json' } })

describe('request bodies nested too deep', () => {
  it('are refused with 400 naming the limit and where it was passed; up to the limit they are accepted', async () => {
    expect((await post('/api/workflows', workflowWith(nested(60)))).status).toBe(201)
    const deep = await post('/api/workflows', workflowWith(nested(61)))
    expect(deep.status).toBe(400)
    expect(deep.body.message).toBe(`The request body nests objects and arrays more than 64 levels deep (at nodes[1].config.value.${as(60)}): flatten it, or raise JUDGEFLOW_MAX_JSON_DEPTH (at most 1000).`)
    expect(deep.body.data.problems).toEqual([{ path: `nodes[1].config.value.${as(60)}`, message: deep.body.message }])
  })

  it('never reach the code behind the route: deep configs, run inputs and arrays are 400s, not 500s', async () => {
    const { body: wf } = await server.api('/api/workflows', { body: { name: 'w', nodes: [{ id: 'in', type: 'input' }], edges: [] } })
    const answers = await Promise.all([
      post('/api/workflows', workflowWith(nested(1900))),
      post(`/api/workflows/${wf.id}`, workflowWith(nested(5000)), 'PUT'),
      post('/api/workflows/validate', workflowWith(nested(5000))),
      post(`/api/workflows/${wf.id}/runs`, `{"input":{"q":${nested(5000)}}}`),
      post('/api/evaluate', `{"config":{"evaluation_type":"scoring","model":"local:heuristic"},"input":{"content":"x","context":${nested(5000)}}}`),
      post('/api/workflows/import', `${'['.repeat(400_000)}${']'.repeat(400_000)}`),
    ])
    expect(answers.map(a => a.status)).toEqual([400, 400, 400, 400, 400, 400])
    expect(answers[3]!.body.message).toContain(`more than 64 levels deep (at input.q.${as(62)})`)
    expect(server.output()).not.toMatch(/RangeError|call stack/)
  })
})

describe('values a run builds', () => {
  it('a step whose references nest values past 2000 levels fails with the reason; the run is stored and presented', async () => {
    // Each output nests the one before it 55 levels deeper: every body is within the limit, o36's rendered config is not.
    const nodes = Array.from({ length: 120 }, (_, i) => `{"id":"o${i}","type":"output","config":{"value":${nested(55, i ? `"{{steps.o${i - 1}.value}}"` : '"x"')}}}`)
    const edges = Array.from({ length: 119 }, (_, i) => `{"from":"o${i}","to":"o${i + 1}"}`)
    const created = await post('/api/workflows', `{"name":"chain","nodes":[${nodes.join(',')}],"edges":[${edges.join(',')}]}`)
    expect([created.status, created.body.problems]).toEqual([201, []])
    const { body: started } = await server.api(`/api/workflows/${created.body.id}/runs`, { body: {} })
    const events = await readSse(`${server.url}/api/runs/${started.id}/events`)
    expect(events.at(-1)).toMatchObject({ event: 'run.finished', data: { result: { status: 'failed' } } })
    const run = await server.api(`/api/runs/${started.id}`)
    expect(run.status).toBe(200)
    expect(run.body.error.message).toMatch(/^node "o36": its config nests objects and arrays more than 2000 levels deep after rendering references \(at config\.value\.a\.a/)
    expect(run.body.steps.o35.status).toBe('succeeded')
    expect(server.output()).not.toMatch(/RangeError|call stack/)
  })
})

describe('keys in request bodies', () => {
  it('refuses __proto__ anywhere, saying so and where', async () => {
    const { body: wf } = await server.api('/api/workflows', { body: { name: 'w', nodes: [{ id: 'in', type: 'input' }], edges: [] } })
    const nestedKey = await post(`/api/workflows/${wf.id}/runs`, '{"input":{"q":{"__proto__":{"polluted":true}}}}')
    expect(nestedKey.status).toBe(400)
    expect(nestedKey.body.message).toBe('The request body is refused: "__proto__" is not allowed as a key (at input.q).')
    expect(nestedKey.body.data.problems[0].path).toBe('input.q')
    const topLevel = await post('/api/workflows/validate', '{"name":"w","\\u005f_proto__":{}}')
    expect([topLevel.status, topLevel.body.message]).toEqual([400, 'The request body is refused: "__proto__" is not allowed as a key (at (top level)).'])
  })

  it('takes constructor and prototype as ordinary keys: input fields, run inputs, config values', async () => {
    const workflow = {
      name: 'Object words',
      nodes: [
        { id: 'in', type: 'input', config: { fields: { constructor: { type: 'string', required: true }, prototype: { type: 'string', default: 'p' } } } },
        { id: 'out', type: 'output', config: { value: { constructor: 'kept', prototype: { constructor: 1 } } } },
      ],
      edges: [{ from: 'in', to: 'out' }],
    }
    const created = await server.api('/api/workflows', { body: workflow })
    expect([created.status, created.body.problems]).toEqual([201, []])
    expect((await server.api(`/api/workflows/${created.body.id}/export`)).body).toEqual(workflow)
    const missing = await server.api(`/api/workflows/${created.body.id}/runs`, { body: { input: {} } })
    expect([missing.status, missing.body.message]).toEqual([400, 'input "constructor" is required (node "in")'])
    const { body: started } = await server.api(`/api/workflows/${created.body.id}/runs`, { body: { input: { constructor: 'c' } } })
    const run = await waitFor(async () => {
      const { body } = await server.api(`/api/runs/${started.id}`)
      return body.status !== 'queued' && body.status !== 'running' && body
    }, 10_000, 'the run')
    expect(run).toMatchObject({ status: 'succeeded', input: { constructor: 'c', prototype: 'p' }, output: { constructor: 'kept', prototype: { constructor: 1 } } })
  })
})

describe('JUDGEFLOW_MAX_JSON_DEPTH above its ceiling (1000)', () => {
  let deepServer: AppServer
  beforeAll(async () => { deepServer = await startAppServer({ env: { JUDGEFLOW_MAX_JSON_DEPTH: '5000' } }) })
  afterAll(async () => { await deepServer?.stop() })

  it('stores, validates, runs and presents values as deep as allowed; deeper ones are refused', async () => {
    const api = (path: string, body?: string, method = body === undefined ? 'GET' : 'POST') => deepServer.api(path, { method, body, headers: { 'content-type': 'application/json' } })
    // The run's output nests the input (998 levels) inside the config's value (996): about twice the limit.
    const created = await api('/api/workflows', workflowWith(nested(996, '"{{input.q}}"')))
    expect(created.status).toBe(201)
    const id = created.body.id
    expect((await api(`/api/workflows/${id}`, workflowWith(nested(996, '"{{input.q}}"')), 'PUT')).status).toBe(200)
    expect((await api('/api/workflows/validate', workflowWith(nested(996)))).status).toBe(200)
    expect((await api(`/api/workflows/${id}`)).status).toBe(200)
    expect((await api(`/api/workflows/${id}/export`)).status).toBe(200)
    const started = await api(`/api/workflows/${id}/runs`, `{"input":{"q":${nested(998)}}}`)
    expect(started.status).toBe(202)
    const run = await waitFor(async () => {
      const { status, body } = await api(`/api/runs/${started.body.id}`)
      return (status !== 200 || !['queued', 'running'].includes(body.status)) && { status, body }
    }, 10_000, 'the deep run')
    expect([run.status, run.body.status]).toEqual([200, 'succeeded'])
    const events = await readSse(`${deepServer.url}/api/runs/${started.body.id}/events`)
    expect(events.at(-1)!.event).toBe('run.finished')
    expect((await api(`/api/workflows/${id}/runs`)).status).toBe(200)
    const evaluated = await api('/api/evaluate', `{"config":{"evaluation_type":"scoring","model":"local:heuristic"},"input":{"content":"x","context":${nested(998)}}}`)
    expect(evaluated.status).toBeLessThan(500)
    const over = await api('/api/workflows', workflowWith(nested(997)))
    expect([over.status, over.body.message]).toEqual([400, expect.stringContaining('more than 1000 levels deep')])
    expect(deepServer.output()).not.toMatch(/RangeError|call stack/)
  })
})
