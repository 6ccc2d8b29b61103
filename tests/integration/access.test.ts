import { spawn } from 'node:child_process'
import { createHmac } from 'node:crypto'
import { request } from 'node:http'
import { afterAll, describe, expect, it } from 'vitest'
import { issueSession } from '../../server/utils/session'
import { SERVER_ENTRY, startAppServer, tempDbPath, type AppServer } from '../support/app-server'

const TOKEN = 'a-long-test-token-0123456789abcdef'
const HOUR = 3_600_000
const servers: AppServer[] = []
afterAll(async () => { await Promise.all(servers.map(s => s.stop())) })

function exitOf(env: Record<string, string>): Promise<{ code: number | null, output: string }> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [SERVER_ENTRY], { env: { PATH: process.env.PATH, NODE_ENV: 'production', PORT: '0', JUDGEFLOW_DB: tempDbPath(), ...env }, stdio: ['ignore', 'pipe', 'pipe'] })
    let output = ''
    child.stdout.on('data', (c) => { output += c })
    child.stderr.on('data', (c) => { output += c })
    const timer = setTimeout(() => child.kill(), 10_000)
    child.on('exit', (code) => {
      clearTimeout(timer)
      done({ code, output })
    })
  })
}

describe('access', () => {
  it('refuses to listen beyond this machine without JUDGEFLOW_TOKEN', async () => {
    for (const HOST of ['0.0.0.0', '']) {
      const { code, output } = await exitOf({ HOST })
      expect(code).toBe(1)
      expect(output).toContain('refusing to start')
      expect(output).toContain('JUDGEFLOW_TOKEN')
    }
    const server = await startAppServer({ env: { HOST: '0.0.0.0', JUDGEFLOW_TOKEN: TOKEN } })
    servers.push(server)
    expect((await server.api('/api/health')).status).toBe(200)
  })

  it('refuses to start with a run or stream limit that is not a whole number, naming the variable', async () => {
    const { code, output } = await exitOf({ HOST: '127.0.0.1', JUDGEFLOW_RUN_LEASE_MS: '15s' })
    expect(code).toBe(1)
    expect(output).toContain('judgeflow: refusing to start: JUDGEFLOW_RUN_LEASE_MS must be a whole number of at least 1 (it is "15s"); unset it for the default, 15000.')
  })

  it('with a token: the API wants the bearer header or the session cookie; pages go to /login', async () => {
    const server = await startAppServer({ env: { JUDGEFLOW_TOKEN: TOKEN } })
    servers.push(server)
    const anonymous = await server.api('/api/workflows')
    expect(anonymous.status).toBe(401)
    expect(anonymous.body.message).toContain('Authorization: Bearer')
    expect((await server.api('/api/workflows', { headers: { authorization: 'Bearer wrong' } })).status).toBe(401)
    expect((await server.api('/api/workflows', { headers: { authorization: `Bearer ${TOKEN}` } })).status).toBe(200)

    const page = await fetch(`${server.url}/workflows/x`, { redirect: 'manual' })
    expect(page.status).toBe(302)
    expect(page.headers.get('location')).toBe('/login?next=%2Fworkflows%2Fx')
    expect((await fetch(`${server.url}/login`)).status).toBe(200)

    expect((await server.api('/api/login', { body: { token: 'wrong' } })).status).toBe(401)
    const login = await server.api('/api/login', { body: { token: TOKEN } })
    expect(login.status).toBe(200)
    const cookie = login.headers.get('set-cookie')!
    expect(cookie).toMatch(/^judgeflow_session=\d+\.\d+\.[0-9a-f]{64};/)
    expect(cookie).toContain('Max-Age=43200')
    expect(cookie).toContain('HttpOnly')
    expect(cookie).toContain('SameSite=Strict')
    expect(cookie).not.toContain(TOKEN)
    const session = cookie.split(';')[0]!
    expect((await server.api('/api/workflows', { headers: { cookie: session } })).status).toBe(200)
    expect((await fetch(`${server.url}/`, { headers: { cookie: session }, redirect: 'manual' })).status).toBe(200)
  })

  it('without a token, refuses Host names that only start with 127. (DNS rebinding)', async () => {
    const server = await startAppServer()
    servers.push(server)
    const { port } = new URL(server.url)
    for (const host of [`127.attacker.example:${port}`, '127.attacker.example', `127.0.0.1.nip.io:${port}`]) {
      expect(await getWithHost(server.url, '/api/workflows', host)).toEqual({ status: 403, message: `Refused: this server does not answer to the host "${host}". Add it to JUDGEFLOW_ALLOWED_HOSTS to allow it.` })
    }
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`]) expect((await getWithHost(server.url, '/api/workflows', host)).status, host).toBe(200)
  })

  it('refuses state-changing requests from another origin, and sends a Content-Security-Policy with pages', async () => {
    const server = await startAppServer()
    servers.push(server)
    const host = new URL(server.url).host
    const foreign = await server.api('/api/workflows', { body: { name: 'x', nodes: [], edges: [] }, headers: { origin: 'https://evil.example' } })
    expect(foreign.status).toBe(403)
    expect(foreign.body.message).toContain('another origin (https://evil.example)')
    expect((await server.api('/api/workflows', { body: { name: 'same origin', nodes: [{ id: 'in', type: 'input' }], edges: [] }, headers: { origin: `http://${host}` } })).status).toBe(201)
    expect((await server.api('/api/workflows', { headers: { origin: 'https://evil.example' } })).status).toBe(200)

    const page = await fetch(`${server.url}/`)
    const csp = page.headers.get('content-security-policy')!
    expect(csp).toContain(`script-src 'self' 'sha256-`)
    expect(csp).toContain(`object-src 'none'`)
    expect(csp).toContain(`frame-ancestors 'none'`)
    expect(csp).not.toContain('unsafe-eval')
    // The hash is the page's own inline script's: the page still runs (the browser tests load it under this policy).
    const html = await page.text()
    const inline = /<script>([\s\S]*?)<\/script>/.exec(html)![1]!
    const { createHash } = await import('node:crypto')
    expect(csp).toContain(`'sha256-${createHash('sha256').update(inline).digest('base64')}'`)
  })
})

/** A GET with the path sent as is (fetch would turn `\` into `/`). */
function rawGet(url: string, path: string, headers: Record<string, string> = {}): Promise<{ status: number, location?: string }> {
  const { hostname, port } = new URL(url)
  return new Promise((done, fail) => {
    request({ hostname, port, path, headers }, (res) => {
      res.resume()
      done({ status: res.statusCode!, location: res.headers.location })
    }).on('error', fail).end()
  })
}

/** A GET sent with this Host header (fetch sets its own): the status and the body's message. */
function getWithHost(url: string, path: string, host: string): Promise<{ status: number, message: string }> {
  const { hostname, port } = new URL(url)
  return new Promise((done, fail) => {
    request({ hostname, port, path, headers: { host } }, (res) => {
      let body = ''
      res.on('data', (chunk) => { body += chunk })
      res.on('end', () => done({ status: res.statusCode!, message: String(JSON.parse(body).message ?? '') }))
    }).on('error', fail).end()
  })
}

describe('access with a token: start-up checks, sessions, throttling', () => {
  it('refuses to start with a token shorter than 32 characters, or a session TTL that is not a positive number of hours', async () => {
    const short = 'x'.repeat(31)
    for (const HOST of ['127.0.0.1', '0.0.0.0']) {
      const { code, output } = await exitOf({ HOST, JUDGEFLOW_TOKEN: short })
      expect(code).toBe(1)
      expect(output).toContain('JUDGEFLOW_TOKEN must be at least 32 characters long')
      expect(output).not.toContain(short)
    }
    for (const ttl of ['0', '-3', 'soon']) {
      const { code, output } = await exitOf({ HOST: '127.0.0.1', JUDGEFLOW_TOKEN: TOKEN, JUDGEFLOW_SESSION_TTL_HOURS: ttl })
      expect(code).toBe(1)
      expect(output).toContain('JUDGEFLOW_SESSION_TTL_HOURS must be a number of hours above 0')
    }
  })

  it('enforces the session expiry on the server; signing out ends the session; bearer tokens keep working', async () => {
    const server = await startAppServer({ env: { JUDGEFLOW_TOKEN: TOKEN, JUDGEFLOW_SESSION_TTL_HOURS: '2' } })
    servers.push(server)
    const withCookie = (value: string) => server.api('/api/workflows', { headers: { cookie: `judgeflow_session=${value}` } })
    const now = Date.now()
    expect((await withCookie(issueSession(TOKEN, 2 * HOUR, now - 30 * 60_000))).status).toBe(200)
    // Signed with the right token, but past its expiry, or issued longer ago than the TTL in force.
    expect((await withCookie(issueSession(TOKEN, 2 * HOUR, now - 3 * HOUR))).status).toBe(401)
    expect((await withCookie(issueSession(TOKEN, 30 * 24 * HOUR, now - 3 * HOUR))).status).toBe(401)
    // An expiry moved forward by hand, and the old never-expiring cookie (an HMAC of the token).
    const [issued, expires, mac] = issueSession(TOKEN, 2 * HOUR, now - 3 * HOUR).split('.')
    expect((await withCookie(`${issued}.${Number(expires) + 86_400}.${mac}`)).status).toBe(401)
    expect((await withCookie(createHmac('sha256', TOKEN).update('judgeflow-session-v1').digest('hex'))).status).toBe(401)

    const login = await server.api('/api/login', { body: { token: TOKEN } })
    expect(login.headers.get('set-cookie')).toContain('Max-Age=7200')
    expect(login.body.expires_at).toBeGreaterThan(now + 2 * HOUR - 60_000)
    const session = login.headers.get('set-cookie')!.split(';')[0]!
    expect((await server.api('/api/session', { headers: { cookie: session } })).body).toMatchObject({ token_required: true, signed_in: true })
    expect((await server.api('/api/session')).body).toMatchObject({ token_required: true, signed_in: false })

    const logout = await server.api('/api/logout', { method: 'POST', headers: { cookie: session } })
    expect(logout.status).toBe(200)
    expect(logout.headers.get('set-cookie')).toMatch(/^judgeflow_session=;.*Max-Age=0/)
    // A copy of the cookie kept after signing out is refused.
    expect((await server.api('/api/workflows', { headers: { cookie: session } })).status).toBe(401)
    expect((await server.api('/api/session', { headers: { cookie: session } })).body.signed_in).toBe(false)
    expect((await server.api('/api/workflows', { headers: { authorization: `Bearer ${TOKEN}` } })).status).toBe(200)
  })

  it('backs off after five wrong tokens: 429 with Retry-After (30 s, doubling) for wrong tokens, never for the right one', async () => {
    const server = await startAppServer({ env: { JUDGEFLOW_TOKEN: TOKEN } })
    servers.push(server)
    const statuses: number[] = []
    for (let i = 0; i < 4; i++) statuses.push((await server.api('/api/login', { body: { token: `wrong-${i}` } })).status)
    const fifth = await server.api('/api/login', { body: { token: 'wrong-5' } })
    expect([...statuses, fifth.status]).toEqual([401, 401, 401, 401, 401])
    expect(fifth.body.message).toContain('try again in 30 seconds')

    const refused = await server.api('/api/login', { body: { token: 'wrong-6' } })
    expect(refused.status).toBe(429)
    const retryAfter = Number(refused.headers.get('retry-after'))
    expect(retryAfter).toBeGreaterThan(0)
    expect(retryAfter).toBeLessThanOrEqual(30)
    expect(refused.body.message).toMatch(new RegExp(`^Too many wrong tokens from your address: try again in ${retryAfter} seconds? \\(after \\d{4}-\\d\\d-\\d\\dT`))
    expect(refused.body.data).toEqual({ code: 'TOO_MANY_ATTEMPTS', retry_after_s: retryAfter })
    expect(refused.headers.get('set-cookie')).toBeNull()
    // The bearer header is checked by the same count: a burst of wrong tokens gets refusals, not answers.
    const burst = await Promise.all(Array.from({ length: 300 }, (_, i) => server.api('/api/workflows', { headers: { authorization: `Bearer guess-${i}` } })))
    expect(burst.every(r => r.status === 429)).toBe(true)

    // Wrong tokens from the same address (someone else behind the same proxy) never lock the owner out.
    expect((await server.api('/api/workflows', { headers: { authorization: `Bearer ${TOKEN}` } })).status).toBe(200)
    expect((await server.api('/api/login', { body: { token: TOKEN } })).status).toBe(200)
  })

  it('counts only failures in a row: the right token starts the count again, and still gets in once the lock-out started', async () => {
    const server = await startAppServer({ env: { JUDGEFLOW_TOKEN: TOKEN } })
    servers.push(server)
    const attempt = async (token: string) => (await server.api('/api/login', { body: { token } })).status
    const bearer = async (token: string) => (await server.api('/api/workflows', { headers: { authorization: `Bearer ${token}` } })).status
    const statuses: number[] = []
    for (const token of ['a', 'b', 'c', 'd', TOKEN, 'e', 'f', 'g', 'h']) statuses.push(await attempt(token))
    expect(statuses).toEqual([401, 401, 401, 401, 200, 401, 401, 401, 401])
    expect(await bearer('i')).toBe(401)
    // Locked out: wrong tokens are refused, by either way in, the right one is not.
    expect([await attempt('j'), await bearer('k')]).toEqual([429, 429])
    const login = await server.api('/api/login', { body: { token: TOKEN } })
    expect(login.status).toBe(200)
    expect(login.headers.get('set-cookie')).toMatch(/^judgeflow_session=/)
    expect(await bearer(TOKEN)).toBe(200)
  })

  it('sends a page to /login with `next` only when it is a path of this origin', async () => {
    const server = await startAppServer({ env: { JUDGEFLOW_TOKEN: TOKEN } })
    servers.push(server)
    expect(await rawGet(server.url, '/experiments?x=1')).toEqual({ status: 302, location: '/login?next=%2Fexperiments%3Fx%3D1' })
    for (const path of ['/\\127.0.0.1:3971/experiments', '//127.0.0.1:3971/experiments', '/%09/127.0.0.1:3971/experiments', '/%5C127.0.0.1:3971/experiments']) {
      expect(await rawGet(server.url, path), path).toEqual({ status: 302, location: '/login?next=%2F' })
    }
  })
})
