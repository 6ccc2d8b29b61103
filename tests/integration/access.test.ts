import { spawn } from 'node:child_process'
import { afterAll, describe, expect, it } from 'vitest'
import { SERVER_ENTRY, startAppServer, tempDbPath, type AppServer } from '../support/app-server'

const TOKEN = 'a-long-test-token-0123456789'
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
    expect(cookie).toMatch(/^judgeflow_session=[0-9a-f]{64};/)
    expect(cookie).toContain('HttpOnly')
    expect(cookie).toContain('SameSite=Strict')
    expect(cookie).not.toContain(TOKEN)
    const session = cookie.split(';')[0]!
    expect((await server.api('/api/workflows', { headers: { cookie: session } })).status).toBe(200)
    expect((await fetch(`${server.url}/`, { headers: { cookie: session }, redirect: 'manual' })).status).toBe(200)
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
