import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createProviders, defaultRegistry, runWorkflow, validateWorkflow, type RunEvent } from '../../../engine'
import type { HttpAccess } from '../../../engine/http/access'
import { loopbackServer, offMachineAttempts, socketsDuring, type Loopback } from '../http/loopback'

const providers = createProviders({ env: {} })
let service: Loopback

beforeAll(async () => {
  service = await loopbackServer((req, res, hit) => {
    if (req.url === '/flaky' && service.hits.filter(h => h.url === '/flaky').length === 1) {
      res.writeHead(503, { 'retry-after': '0' }).end('busy')
      return
    }
    if (req.url === '/missing') {
      res.writeHead(404, { 'content-type': 'text/plain' }).end(`no route; you sent ${hit.headers.authorization ?? 'nothing'}`)
      return
    }
    const body = hit.body ? JSON.parse(hit.body) : null
    res.writeHead(200, { 'content-type': 'application/json', 'x-request-id': 'req-1', 'set-cookie': 'session=private' })
    res.end(JSON.stringify({
      choices: [{ message: { content: `Answer to: ${body?.question ?? ''}` } }], echo: { authorization: hit.headers.authorization ?? null },
      ...(req.url === '/usage' ? { usage: { prompt_tokens: 12, completion_tokens: 5 } } : {}),
    }))
  })
})
afterAll(async () => {
  await service.close()
  expect(offMachineAttempts).toEqual([])
})

const loopbackOnly = (env: Record<string, string> = {}, overrides: Partial<HttpAccess> = {}): HttpAccess => ({
  policy: { guard: true, allow: ['127.0.0.1'] }, env: [], workflowEnv: true, read: name => env[name], ...overrides,
})

function gateWorkflow(http: Record<string, unknown>, settings: Record<string, unknown> = {}) {
  return {
    name: 'gate my API',
    settings,
    nodes: [
      { id: 'in', type: 'input', config: { fields: { question: { type: 'string' } } } },
      { id: 'api', type: 'http', config: { url: `${service.url}/chat`, body: { question: '{{input.question}}' }, answer: 'choices[0].message.content', ...http } },
      { id: 'out', type: 'output', config: { value: '{{steps.api.text}}' } },
    ],
    edges: [{ from: 'in', to: 'api' }, { from: 'api', to: 'out' }],
  }
}

async function run(workflow: unknown, access: HttpAccess, input: unknown = { question: 'What is 2+2?' }) {
  const events: RunEvent[] = []
  const result = await runWorkflow(workflow, { registry: defaultRegistry, providers, input, evaluation: { http: access }, onEvent: (e) => { events.push(e) } })
  return { result, events }
}

describe('the http step', () => {
  it('posts the rendered body to a real endpoint and outputs the answer at the path, the status, kept headers and latency', async () => {
    const { result } = await run(gateWorkflow({}), loopbackOnly())
    expect(result.status).toBe('succeeded')
    const api = result.steps.api!.output as Record<string, any>
    expect(api.text).toBe('Answer to: What is 2+2?')
    expect(api.status).toBe(200)
    expect(api.json.choices[0].message.content).toBe('Answer to: What is 2+2?')
    expect(api.headers['x-request-id']).toBe('req-1')
    expect(api.headers['set-cookie']).toBeUndefined()
    expect(api.latency_ms).toBeGreaterThanOrEqual(0)
    expect(result.output).toBe('Answer to: What is 2+2?')
    const hit = service.hits.at(-1)!
    expect(hit.method).toBe('POST')
    expect(JSON.parse(hit.body)).toEqual({ question: 'What is 2+2?' })
    expect(hit.headers['content-type']).toBe('application/json')
  })

  it('sends {{env.NAME}} in a header, but never stores it: the input keeps the reference, the output and the error hide the value', async () => {
    const secret = 'sk-live-0123456789'
    const { result, events } = await run(gateWorkflow({ headers: { Authorization: 'Bearer {{env.API_TOKEN}}' } }, { env: ['API_TOKEN'] }), loopbackOnly({ API_TOKEN: secret }))
    expect(result.status).toBe('succeeded')
    expect(service.hits.at(-1)!.headers.authorization).toBe(`Bearer ${secret}`)
    expect((result.steps.api!.output as any).json.echo.authorization).toBe('Bearer [env.API_TOKEN]')
    expect(JSON.stringify(events)).not.toContain(secret)
    expect(JSON.stringify(events)).toContain('Bearer {{env.API_TOKEN}}')

    const failed = await run(gateWorkflow({ url: `${service.url}/missing`, headers: { Authorization: 'Bearer {{env.API_TOKEN}}' } }, { env: ['API_TOKEN'] }), loopbackOnly({ API_TOKEN: secret }))
    expect(failed.result.status).toBe('failed')
    const message = failed.result.steps.api!.error!.message
    expect(message).toMatch(/answered 404 Not Found \(expected 2xx\): no route; you sent Bearer \[env\.API_TOKEN\]/)
    expect(JSON.stringify(failed.events)).not.toContain(secret)
  })

  it('reads only the variables listed: settings.env from the CLI and library, JUDGEFLOW_HTTP_ENV on the server', async () => {
    const workflow = gateWorkflow({ headers: { 'X-Key': '{{env.STAGING_KEY}}' } })
    const unlisted = await run(workflow, loopbackOnly({ STAGING_KEY: 'abcd-1234' }))
    expect(unlisted.result.steps.api!.error!.message).toBe('headers.X-Key reads {{env.STAGING_KEY}}, which is not readable: list STAGING_KEY in JUDGEFLOW_HTTP_ENV or the workflow\'s settings.env.')

    const server = loopbackOnly({ STAGING_KEY: 'abcd-1234' }, { workflowEnv: false })
    const listedByWorkflow = await run(gateWorkflow({ headers: { 'X-Key': '{{env.STAGING_KEY}}' } }, { env: ['STAGING_KEY'] }), server)
    expect(listedByWorkflow.result.steps.api!.error!.message).toMatch(/list STAGING_KEY in JUDGEFLOW_HTTP_ENV \(on the server, a workflow's settings.env cannot add names\)/)
    const listedByServer = await run(workflow, { ...server, env: ['STAGING_KEY'] })
    expect(listedByServer.result.status).toBe('succeeded')
    expect(service.hits.at(-1)!.headers['x-key']).toBe('abcd-1234')

    const unset = await run(workflow, loopbackOnly({}, { env: ['STAGING_KEY'] }))
    expect(unset.result.steps.api!.error!.message).toBe('headers.X-Key reads {{env.STAGING_KEY}}, which is not set in the environment: set STAGING_KEY.')
  })

  it('reports the product\'s token usage when its response does, as the step\'s usage', async () => {
    const { result, events } = await run(gateWorkflow({ url: `${service.url}/usage` }), loopbackOnly())
    expect((result.steps.api!.output as any).usage).toEqual({ input_tokens: 12, output_tokens: 5 })
    const done = events.find(e => e.type === 'step.succeeded' && e.step.node_id === 'api') as any
    expect(done.step.usage).toEqual({ input_tokens: 12, output_tokens: 5 })
    const plain = await run(gateWorkflow({}), loopbackOnly())
    expect((plain.result.steps.api!.output as any).usage).toBeUndefined()
  })

  it('retries a 503 as its Retry-After asks, and says how many calls it made', async () => {
    const { result } = await run(gateWorkflow({ url: `${service.url}/flaky` }), loopbackOnly())
    expect(result.status).toBe('succeeded')
    expect((result.steps.api!.output as any).attempts).toBe(2)
  })

  it('fails on an unexpected status with the status and a body excerpt, and names a path that finds nothing', async () => {
    const missing = await run(gateWorkflow({ url: `${service.url}/missing` }), loopbackOnly())
    expect(missing.result.steps.api!.error!.message).toMatch(/^POST http:\/\/127\.0\.0\.1:\d+\/missing answered 404 Not Found \(expected 2xx\): no route; you sent nothing$/)
    const wrongPath = await run(gateWorkflow({ answer: 'output.text' }), loopbackOnly())
    expect(wrongPath.result.steps.api!.error!.message).toBe('The answer path "output.text" finds nothing at "output": there is no key "output"; the keys there are "choices", "echo".')
  })

  it('is refused on the server before any socket opens when the address is private or loopback and not listed', async () => {
    const before = service.hits.length
    const { sockets, result: ran } = await socketsDuring(() => run(gateWorkflow({}), loopbackOnly({}, { policy: { guard: true } })))
    expect(sockets).toEqual([])
    const { result } = ran!
    expect(result.steps.api!.error!.message).toMatch(/127\.0\.0\.1 is a loopback address; the server calls only public addresses unless the host or the address is listed in JUDGEFLOW_HTTP_ALLOW/)
    expect(service.hits.length).toBe(before)
  })
})

describe('http step validation', () => {
  const problems = (workflow: unknown) => {
    const result = validateWorkflow(workflow, defaultRegistry)
    return result.ok ? [] : result.problems.map(p => p.message)
  }

  it('refuses {{env.…}} outside an http step\'s headers, and beside another reference in a header', () => {
    const inPrompt = gateWorkflow({ body: { token: '{{env.API_TOKEN}}' } })
    expect(problems(inPrompt)).toContain('node "api": nodes.api.config.body.token: {{env.API_TOKEN}} reads an environment variable, which only an http step\'s headers may do (the value is put in as the request is sent, never stored)')
    const mixed = gateWorkflow({ headers: { Authorization: '{{input.question}} {{env.API_TOKEN}}' } })
    expect(problems(mixed)).toContain('node "api": nodes.api.config.headers.Authorization: {{env.API_TOKEN}}: a header that reads an environment variable holds only text and {{env.NAME}}, no other reference')
    expect(problems(gateWorkflow({ headers: { Authorization: 'Bearer {{env.API_TOKEN}}' } }))).toEqual([])
  })

  it('names a bad answer path, a body on a GET, and a reference to a field the step does not output', () => {
    expect(problems(gateWorkflow({ answer: 'choices[x]' }))).toEqual([expect.stringMatching(/nodes\.api\.config\.answer: The answer path "choices\[x\]" is not a path/)])
    expect(problems(gateWorkflow({ method: 'get' }))).toEqual([expect.stringMatching(/nodes\.api\.config\.body: a GET request sends no body/)])
    const wrongField = gateWorkflow({})
    wrongField.nodes[2]!.config = { value: '{{steps.api.answer}}' }
    expect(problems(wrongField)).toEqual([expect.stringMatching(/step "api" \(.*\) has no field "answer" \(its fields: text, json, status, headers, latency_ms, attempts, usage\)/)])
  })
})
