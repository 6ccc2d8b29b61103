// Requests an attacker would send, through the real HTTP API: each must get a clear refusal and
// leave the server answering its health check.
import { mkdirSync, mkdtempSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs'
import { request } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { FakeLLM } from '../support/fake-llm'
import { startAppServer, type AppServer } from '../support/app-server'
import { runEndedOn } from '../support/runs'
import { configFileWorkflow } from '../support/workflows'

const root = mkdtempSync(join(tmpdir(), 'judgeflow-hostile-'))
const configs = join(root, 'configs')
mkdirSync(configs)
writeFileSync(join(configs, 'judge.json'), JSON.stringify({ evaluation_type: 'scoring', model: 'local:heuristic', pass_threshold: 0.1 }))
writeFileSync(join(root, 'secret.json'), JSON.stringify({ name: 'judgeflow', devDependencies: { x: '1' } }))
symlinkSync(join(root, 'secret.json'), join(configs, 'escape.json'))

let server: AppServer
const fake = new FakeLLM()
beforeAll(async () => {
  await fake.start()
  fake.onRequest(() => ({ text: 'slow answer', delayMs: 2_000 }))
  server = await startAppServer({ env: { ...fake.env(), JUDGEFLOW_CONFIG_DIR: configs, JUDGEFLOW_MAX_CONCURRENT_RUNS: '1', JUDGEFLOW_MAX_QUEUED_RUNS: '1' } })
})
afterAll(async () => {
  await server?.stop()
  await fake.stop()
})

/** A raw HTTP request, so Host and Transfer-Encoding are exactly what the test says. */
function raw(
  path: string,
  options: { method?: string, headers?: Record<string, string>, body?: string } = {},
): Promise<{ status: number, headers: Record<string, unknown>, body: string }> {
  const url = new URL(server.url)
  return new Promise((resolve, reject) => {
    const req = request({ host: url.hostname, port: url.port, path, method: options.method ?? 'GET', headers: options.headers }, (res) => {
      let body = ''
      res.on('data', (chunk) => { body += chunk })
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }))
    })
    req.on('error', reject)
    req.end(options.body)
  })
}

async function healthWithin(ms: number) {
  const t0 = performance.now()
  const response = await fetch(`${server.url}/api/health`, { signal: AbortSignal.timeout(ms) })
  expect(response.status).toBe(200)
  return performance.now() - t0
}

async function runToEnd(workflowId: string, input: unknown) {
  const started = await server.api(`/api/workflows/${workflowId}/runs`, { body: { input } })
  expect(started.status).toBe(202)
  return { body: await runEndedOn(server, started.body.id) }
}

describe('config_file stays inside the config folder', () => {
  it('refuses devices, other files and references before a run starts, naming node and field', async () => {
    for (const [file, message] of [['/dev/zero', 'must name a .json or .toml file'], ['/etc/passwd', 'must name a .json or .toml file'], ['{{input.p}}', 'cannot hold a {{reference}}']] as const) {
      const created = await server.api('/api/workflows', { body: configFileWorkflow(file) })
      const problems = JSON.stringify(created.body.problems ?? created.body)
      expect(problems).toContain('config_file')
      expect(problems).toContain(message)
      if (created.status === 201) {
        const run = await server.api(`/api/workflows/${created.body.id}/runs`, { body: { input: { p: '/dev/zero', text: 'hi' } } })
        expect(run.status).toBe(400)
        expect(run.body.message).toContain('config_file')
      }
    }
    await healthWithin(1_000)
  })

  it('reads a file in the folder; refuses .. and symlinks out of it without telling what is there', async () => {
    const good = await server.api('/api/workflows', { body: configFileWorkflow('judge.json') })
    const ok = await runToEnd(good.body.id, { text: 'Paris is the capital of France.' })
    expect(ok.body.status).toBe('succeeded')
    expect(ok.body.steps.judge.output.overall_score).toBeTypeOf('number')
    for (const file of ['../secret.json', 'escape.json', `${root}/secret.json`]) {
      const created = await server.api('/api/workflows', { body: configFileWorkflow(file) })
      const run = await runToEnd(created.body.id, { text: 'hi' })
      expect(run.body.status).toBe('failed')
      expect(run.body.error.message).toContain('outside the config folder')
      expect(JSON.stringify(run.body)).not.toMatch(/devDependencies|"judgeflow"/)
    }
  })
})

describe('Host and Origin', () => {
  it('refuses a Host this server does not answer to (DNS rebinding), even with a matching Origin', async () => {
    const host = 'rebind.evil.example:3971'
    const post = await raw('/api/workflows', { method: 'POST', headers: { 'host': host, 'origin': `http://${host}`, 'content-type': 'application/json' }, body: JSON.stringify({ name: 'x', nodes: [], edges: [] }) })
    expect(post.status).toBe(403)
    expect(post.body).toContain('JUDGEFLOW_ALLOWED_HOSTS')
    expect((await raw('/api/workflows', { headers: { host } })).status).toBe(403)
    expect((await raw('/', { headers: { host } })).status).toBe(403)
    for (const allowed of ['127.0.0.1', `localhost:${new URL(server.url).port}`, '[::1]:80']) {
      expect((await raw('/api/health', { headers: { host: allowed } })).status).toBe(200)
    }
  })

  it('compares the Origin\'s scheme too', async () => {
    const host = new URL(server.url).host
    const body = JSON.stringify({ name: 'x', nodes: [{ id: 'in', type: 'input' }], edges: [] })
    const headers = (origin: string) => ({ 'host': host, origin, 'content-type': 'application/json' })
    expect((await raw('/api/workflows', { method: 'POST', headers: headers(`https://${host}`), body })).status).toBe(403)
    expect((await raw('/api/workflows', { method: 'POST', headers: headers(`http://${host}`), body })).status).toBe(201)
  })

  it('answers hosts named in JUDGEFLOW_ALLOWED_HOSTS', async () => {
    const other = await startAppServer({ env: { JUDGEFLOW_ALLOWED_HOSTS: 'judge.internal, ci.example:8080' } })
    try {
      const at = (host: string) => fetchWithHost(other.url, host)
      expect(await at('judge.internal')).toBe(200)
      expect(await at('ci.example:8080')).toBe(200)
      expect(await at('ci.example:9090')).toBe(403)
      expect(await at('evil.example')).toBe(403)
    }
    finally {
      await other.stop()
    }
  })
})

function fetchWithHost(base: string, host: string): Promise<number> {
  const url = new URL(base)
  return new Promise((resolve, reject) => {
    request({ host: url.hostname, port: url.port, path: '/api/health', headers: { host } }, (res) => {
      res.resume()
      resolve(res.statusCode!)
    }).on('error', reject).end()
  })
}

describe('sizes', () => {
  it('cuts a chunked body off at the limit instead of buffering it whole', async () => {
    const url = new URL(server.url)
    const rssBefore = rssOf(server.process.pid!)
    const chunk = Buffer.alloc(1024 * 1024, 'a')
    const { status, sent } = await new Promise<{ status: number, sent: number }>((resolve, reject) => {
      let sent = 0
      let answered = false
      const req = request({ host: url.hostname, port: url.port, path: '/api/login', method: 'POST', headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked' } }, (res) => {
        answered = true
        res.resume()
        resolve({ status: res.statusCode!, sent })
        req.destroy()
      })
      req.on('error', (error) => { if (!answered) reject(error) })
      const pump = () => {
        // Up to 600 MiB, stopping as soon as the server has answered.
        while (!answered && sent < 600 * chunk.length) {
          sent += chunk.length
          if (!req.write(chunk)) return void req.once('drain', pump)
        }
        if (!answered) req.end()
      }
      pump()
    })
    expect(status).toBe(413)
    expect(sent).toBeLessThan(64 * chunk.length)
    expect(rssOf(server.process.pid!) - rssBefore).toBeLessThan(100 * 1024 * 1024)
    await healthWithin(1_000)
  })

  it('stops an output that repeats a 900 KB input 150 times; the run stays small and readable', async () => {
    const created = await server.api('/api/workflows', {
      body: {
        name: 'amplifier',
        nodes: [{ id: 'in', type: 'input' }, { id: 'out', type: 'output', config: { value: Array.from({ length: 150 }, () => '{{input.x}}') } }],
        edges: [{ from: 'in', to: 'out' }],
      },
    })
    const dbBefore = statSync(server.dbPath).size
    const run = await runToEnd(created.body.id, { x: 'y'.repeat(900_000) })
    expect(run.body.status).toBe('failed')
    expect(run.body.error.code).toBe('TOO_LARGE')
    expect(run.body.error.message).toContain('JUDGEFLOW_MAX_STEP_RECORD')
    expect(run.body.steps.out.input ?? null).toBeNull()
    expect(JSON.stringify(run.body).length).toBeLessThan(5_000_000)
    const list = await raw(`/api/workflows/${created.body.id}/runs`)
    expect(list.status).toBe(200)
    expect(list.body.length).toBeLessThan(10_000)
    expect(JSON.parse(list.body)[0]).not.toHaveProperty('input')
    expect(statSync(server.dbPath).size - dbBefore).toBeLessThan(20 * 1024 * 1024)
    await healthWithin(1_000)
  })
})

describe('small things', () => {
  it('unknown API paths are 404 JSON; no x-powered-by; query errors name the parameter; a full queue says when to retry', async () => {
    const unknown = await raw('/api/no-such-thing')
    expect(unknown.status).toBe(404)
    expect(unknown.headers['content-type']).toContain('application/json')
    expect(JSON.parse(unknown.body).message).toBe('No API route GET /api/no-such-thing.')
    for (const path of ['/', '/api/health', '/api/workflows']) expect((await raw(path)).headers).not.toHaveProperty('x-powered-by')

    const created = await server.api('/api/workflows', {
      body: { name: 'slow', nodes: [{ id: 'in', type: 'input' }, { id: 'llm', type: 'llm', config: { model: 'openai:gpt-4o-mini', prompt: 'hi' } }], edges: [{ from: 'in', to: 'llm' }] },
    })
    const query = await server.api(`/api/workflows/${created.body.id}/runs?limit=abc`)
    expect(query.status).toBe(400)
    expect(query.body.message).toMatch(/^Invalid query: limit: /)
    expect(query.body.message).not.toContain('"code"')

    const answers = await Promise.all(Array.from({ length: 4 }, () => server.api(`/api/workflows/${created.body.id}/runs`, { body: { input: {}, options: { cache: false } } })))
    const refused = answers.find(a => a.status === 429)
    expect(refused).toBeDefined()
    expect(Number(refused!.headers.get('retry-after'))).toBeGreaterThan(0)
    // While the waiting list is full, a start is refused before its body is read or its workflow
    // looked up: a refusal under load costs no parsing, and says what to wait for.
    const early = await server.api(`/api/workflows/${created.body.id}/runs`, { body: { input: 'not an object' } })
    expect(early.status).toBe(429)
    expect(early.body.message).toMatch(/runs are already waiting .*JUDGEFLOW_MAX_QUEUED_RUNS/)
  })
})

function rssOf(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8')
  return Number(/VmRSS:\s+(\d+)/.exec(status)![1]) * 1024
}
