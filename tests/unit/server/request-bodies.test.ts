import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { toNodeListener } from 'h3'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { loadConfig } from '../../../core'
import { apiApp } from '../../support/api-routes'
import { requestHead, stalledRequest, type StalledRequest } from '../../support/raw-http'

/**
 * The access middleware, the body limit and the body deadline as the built server runs them, with
 * the login route, on a plain node:http server on loopback: raw sockets send what a browser never
 * would (a huge Content-Length, a body that stops half-way) and see what the server does.
 */
const served = vi.hoisted(() => ({ config: undefined as ReturnType<typeof loadConfig> | undefined }))
vi.mock('../../../server/utils/config', () => ({ judgeflowConfig: () => served.config }))

const TOKEN = 'a-long-test-token-0123456789abcdef'
const BODY_TIMEOUT_MS = 500
let server: Server
let port: number
const sockets: StalledRequest[] = []

beforeAll(async () => {
  served.config = loadConfig({ JUDGEFLOW_TOKEN: TOKEN, JUDGEFLOW_BODY_TIMEOUT_MS: String(BODY_TIMEOUT_MS) })
  const app = await apiApp([['post', '/api/login', 'login.post.ts']], { middleware: ['00-access.ts', 'body-limit.ts'], plugins: ['body-deadline.ts'] })
  server = createServer(toNodeListener(app))
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve))
  port = (server.address() as AddressInfo).port
})
afterAll(async () => {
  for (const socket of sockets) socket.destroy()
  server.closeAllConnections()
  await new Promise(resolve => server.close(resolve))
})

const send = (path: string, headers: Record<string, string>, body: string | Buffer = '') => {
  const request = stalledRequest(port, requestHead('POST', path, { 'content-type': 'application/json', ...headers }), body)
  sockets.push(request)
  return request
}
const openConnections = () => new Promise<number>((resolve, reject) => server.getConnections((error, count) => (error ? reject(error) : resolve(count))))

describe('request bodies: small on the public routes, and never held past their deadline', () => {
  it('refuses a sign-in whose Content-Length is over 16 KiB at once, before reading any of it, and closes the connection', async () => {
    const login = send('/api/login', { 'content-length': String(1024 * 1024) })
    const answer = await login.answer
    // Answered at once: a wait for the body would have ended in a 408 after the deadline instead.
    expect(answer).toMatchObject({ status: 413, body: { message: 'The request body is larger than 16384 bytes (the most a route served without signing in takes).' } })
    expect(await login.closed).toBe(true)
  })

  it('cuts off a chunked sign-in at 16 KiB while it streams in, with a 413', async () => {
    const chunk = 'x'.repeat(8 * 1024)
    const chunks = Array.from({ length: 3 }, () => `${chunk.length.toString(16)}\r\n${chunk}\r\n`).join('')
    const login = send('/api/login', { 'transfer-encoding': 'chunked' }, chunks)
    expect(await login.answer).toMatchObject({ status: 413, body: { message: 'The request body is larger than 16384 bytes (the most a route served without signing in takes).' } })
    expect(await login.closed).toBe(true)
  })

  it('answers a body that stalls with 408 naming JUDGEFLOW_BODY_TIMEOUT_MS, closes the connection and keeps nothing of it', async () => {
    const stalled = Array.from({ length: 20 }, () => send('/api/login', { 'content-length': '16000' }, `{"token":"${'a'.repeat(8_000)}`))
    for (const login of stalled) {
      expect(await login.answer).toMatchObject({
        status: 408,
        headers: { connection: 'close' },
        body: { message: 'The request body did not arrive within 0.5 s of its headers (JUDGEFLOW_BODY_TIMEOUT_MS): send it whole, at once.' },
      })
      expect(await login.closed).toBe(true)
    }
    expect(await openConnections()).toBe(0)
  })

  it('closes the connection of a body nobody reads because the request was refused first (401) once its deadline passes', async () => {
    const refused = send('/api/workflows', { 'content-length': '1000' }, '{"name":')
    expect(await refused.answer).toMatchObject({ status: 401 })
    expect(await refused.closed).toBe(true)
    expect(await openConnections()).toBe(0)
  })

  it('still signs in with a body sent whole', async () => {
    const body = JSON.stringify({ token: TOKEN })
    const login = send('/api/login', { 'content-length': String(Buffer.byteLength(body)) }, body)
    const answer = await login.answer
    expect(answer).toMatchObject({ status: 200, body: { signed_in: true } })
    expect(answer !== 'none' && answer.headers['set-cookie']).toMatch(/^judgeflow_session=/)
  })
})
