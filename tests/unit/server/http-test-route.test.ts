import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { toNodeListener } from 'h3'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { loadConfig } from '../../../core'
import { createProviders } from '../../../engine'
import { apiApp } from '../../support/api-routes'
import { loopbackServer, offMachineAttempts, socketsDuring, type Loopback } from '../http/loopback'

/**
 * POST /api/http-test, the editor's "Send test request", as the built server runs it behind the
 * access middleware and the body limit: the call is the http step's own, under the server's policy
 * (JUDGEFLOW_HTTP_ALLOW, JUDGEFLOW_HTTP_ENV), against a real endpoint on loopback.
 */
const served = vi.hoisted(() => ({ config: undefined as ReturnType<typeof loadConfig> | undefined }))
vi.mock('../../../server/utils/config', () => ({ judgeflowConfig: () => served.config }))
vi.mock('../../../server/utils/context', () => ({ useJudgeflow: () => ({ config: served.config, providers: createProviders({ env: {} }) }) }))

const TOKEN = 'a-long-test-token-0123456789abcdef'
const SECRET = 'sk-product-secret-42'
let server: Server
let base: string
let service: Loopback

beforeAll(async () => {
  service = await loopbackServer((req, res, hit) => {
    if (req.url === '/down') return void res.writeHead(500, { 'content-type': 'text/plain' }).end('the model is down')
    const body = hit.body ? JSON.parse(hit.body) : {}
    res.writeHead(200, { 'content-type': 'application/json' })
    res.end(JSON.stringify({ reply: { text: `You asked: ${body.question ?? ''}; key ${hit.headers['x-api-key'] ?? 'none'}` } }))
  })
  served.config = loadConfig({ JUDGEFLOW_TOKEN: TOKEN, JUDGEFLOW_HTTP_ALLOW: '127.0.0.1', JUDGEFLOW_HTTP_ENV: 'PRODUCT_KEY', PRODUCT_KEY: SECRET })
  const app = await apiApp([['post', '/api/http-test', 'http-test.post.ts']], { middleware: ['00-access.ts', 'body-limit.ts'] })
  server = createServer(toNodeListener(app))
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
afterAll(async () => {
  server.closeAllConnections()
  await new Promise(resolve => server.close(resolve))
  await service.close()
  expect(offMachineAttempts).toEqual([])
})

async function post(body: unknown, headers: Record<string, string> = { authorization: `Bearer ${TOKEN}` }) {
  const response = await fetch(`${base}/api/http-test`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) })
  return { status: response.status, body: await response.json() as Record<string, any> }
}
const config = (more: Record<string, unknown> = {}) => ({
  url: `${service.url}/chat`, body: { question: '{{input.question}}' }, answer: 'reply.text', headers: { 'X-Api-Key': '{{env.PRODUCT_KEY}}' }, ...more,
})

describe('POST /api/http-test', () => {
  it('makes the call with the sample input and answers status, latency, calls and the answer, never the secret header', async () => {
    const { status, body } = await post({ config: config(), input: { question: 'What is 2+2?' } })
    expect(status).toBe(200)
    expect(body).toMatchObject({ ok: true, status: 200, attempts: 1, answer: 'You asked: What is 2+2?; key [env.PRODUCT_KEY]', truncated: false })
    expect(body.latency_ms).toBeGreaterThanOrEqual(0)
    // The endpoint got the value; the answer holds its name only.
    expect(service.hits.at(-1)!.headers['x-api-key']).toBe(SECRET)
    expect(JSON.stringify(body)).not.toContain(SECRET)
  })

  it('needs the same sign-in as every other route', async () => {
    const before = service.hits.length
    const { status } = await post({ config: config() }, {})
    expect(status).toBe(401)
    expect(service.hits.length).toBe(before)
  })

  it('refuses a body that is not a config and input, naming the field', async () => {
    const { status, body } = await post({ config: 'http://x', input: [] })
    expect(status).toBe(400)
    expect(body.message).toMatch(/^Invalid body: config: .*; input: /)
  })

  it('answers a refused address in the step\'s words, before any socket is opened', async () => {
    const { sockets, result } = await socketsDuring(() => post({ config: config({ url: 'http://169.254.169.254/latest/meta-data' }) }))
    expect(result!.body).toEqual({
      ok: false, code: 'HTTP_REFUSED',
      message: 'POST http://169.254.169.254/latest/meta-data is refused: 169.254.169.254 is not in JUDGEFLOW_HTTP_ALLOW (127.0.0.1), the hosts the server may call.',
    })
    // The one socket is the test's own request to the route.
    expect(sockets.flatMap(s => s.attempts).filter(a => !a.endsWith(`:${new URL(base).port}`))).toEqual([])
  })

  it('answers an unexpected status with the calls made and the body\'s beginning', async () => {
    const { body } = await post({ config: config({ url: `${service.url}/down`, retries: 0 }) })
    expect(body).toMatchObject({ ok: false, code: 'HTTP_FAILED' })
    expect(body.message).toContain('answered 500 Internal Server Error (expected 2xx): the model is down')
  })

  it('says which field of the config is wrong, and which variable cannot be read', async () => {
    expect((await post({ config: { url: '' } })).body).toEqual({ ok: false, code: 'INVALID_CONFIG', message: 'config.url: is empty.' })
    expect((await post({ config: config({ method: 'GET' }) })).body).toMatchObject({ ok: false, message: 'config.body: a GET request sends no body: remove it, or use POST.' })
    const unlisted = await post({ config: config({ headers: { 'X-Api-Key': '{{env.HOME}}' } }) })
    expect(unlisted.body).toMatchObject({ ok: false, code: 'INVALID_CONFIG' })
    expect(unlisted.body.message).toContain('list HOME in JUDGEFLOW_HTTP_ENV')
  })
})
