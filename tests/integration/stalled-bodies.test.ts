import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startAppServer, type AppServer } from '../support/app-server'
import { requestHead, stalledRequest, type StalledRequest } from '../support/raw-http'

/**
 * The built server with a token, as the review found it: sign-ins with a huge Content-Length, and
 * bodies that stop half-way, by the hundred. Each is answered (413 at once, 408 at the deadline)
 * and its connection closed, and the server answers others meanwhile.
 */
const TOKEN = 'a-long-test-token-0123456789abcdef'
let server: AppServer
let port: number
const sockets: StalledRequest[] = []
beforeAll(async () => {
  server = await startAppServer({ env: { JUDGEFLOW_TOKEN: TOKEN, JUDGEFLOW_BODY_TIMEOUT_MS: '1000' } })
  port = Number(new URL(server.url).port)
})
afterAll(async () => {
  for (const socket of sockets) socket.destroy()
  await server?.stop()
})

const send = (path: string, headers: Record<string, string>, body = '') => {
  const request = stalledRequest(port, requestHead('POST', path, { 'content-type': 'application/json', ...headers }), body)
  sockets.push(request)
  return request
}

describe('request bodies on the built server', () => {
  it('refuses a sign-in with a 1 MiB Content-Length at once with 413 naming the limit, and closes its connection', async () => {
    const login = send('/api/login', { 'content-length': String(1024 * 1024) })
    expect(await login.answer).toMatchObject({ status: 413, body: { message: 'The request body is larger than 16384 bytes (the most a route served without signing in takes).' } })
    expect(await login.closed).toBe(true)
  })

  it('answers 200 stalled sign-ins with 408 at the deadline and closes each connection, while /api/health keeps answering', { timeout: 60_000 }, async () => {
    const stalled = Array.from({ length: 200 }, () => send('/api/login', { 'content-length': '16000' }, `{"token":"${'a'.repeat(8_000)}`))
    expect((await server.api('/api/health')).status).toBe(200)
    for (const login of stalled) {
      expect(await login.answer).toMatchObject({ status: 408, body: { message: 'The request body did not arrive within 1 s of its headers (JUDGEFLOW_BODY_TIMEOUT_MS): send it whole, at once.' } })
      expect(await login.closed).toBe(true)
    }
    expect((await server.api('/api/login', { body: { token: TOKEN } })).status).toBe(200)
  })

  it('closes the connection of a body refused before it was read (401) once its deadline passes', async () => {
    const refused = send('/api/workflows', { 'content-length': '1000' }, '{"name":')
    expect(await refused.answer).toMatchObject({ status: 401 })
    expect(await refused.closed).toBe(true)
  })
})
