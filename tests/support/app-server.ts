/** Starts the built app (`.output/server/index.mjs`) as a child process on a free loopback port. */
import { spawn, type ChildProcess } from 'node:child_process'
import { existsSync, mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { FakeLLM } from './fake-llm'

export const SERVER_ENTRY = resolve(import.meta.dirname, '../../.output/server/index.mjs')

export interface AppServer {
  url: string
  dbPath: string
  process: ChildProcess
  output(): string
  stop(signal?: NodeJS.Signals): Promise<void>
  api<T = any>(
    path: string,
    init?: { method?: string, body?: unknown, headers?: Record<string, string> },
  ): Promise<{ status: number, body: T, headers: Headers }>
}

export function tempDbPath(): string {
  return join(mkdtempSync(join(tmpdir(), 'judgeflow-test-')), 'judgeflow.db')
}

/**
 * `entry`: another build's server, `<output dir>/server/index.mjs` (default: this checkout's `.output`);
 * `nodeArgs` go to Node itself (`--cpu-prof`).
 */
export async function startAppServer(options: { dbPath?: string, env?: Record<string, string>, entry?: string, nodeArgs?: string[] } = {}): Promise<AppServer> {
  const entry = options.entry ?? SERVER_ENTRY
  if (!existsSync(entry)) throw new Error(`the app is not built (no ${entry}): run \`npx nuxt build\` (npm test does it first)`)
  const dbPath = options.dbPath ?? tempDbPath()
  const child = spawn(process.execPath, [...options.nodeArgs ?? [], entry], {
    env: { PATH: process.env.PATH, HOME: process.env.HOME, NODE_ENV: 'production', HOST: '127.0.0.1', PORT: '0', JUDGEFLOW_DB: dbPath, JUDGEFLOW_LLM_RETRY_BASE_MS: '5', ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  child.stdout!.on('data', (chunk) => { output += chunk })
  child.stderr!.on('data', (chunk) => { output += chunk })
  const url = await new Promise<string>((resolvePort, reject) => {
    const timer = setTimeout(() => reject(new Error(`the server did not start in time:\n${output}`)), 20_000)
    const check = () => {
      const match = /Listening on (http:\/\/[^\s]+)/.exec(output)
      if (match) {
        clearTimeout(timer)
        resolvePort(match[1]!.replace(/\/$/, '').replace('[::]', '127.0.0.1'))
      }
    }
    child.stdout!.on('data', check)
    child.on('exit', code => reject(new Error(`the server exited with ${code}:\n${output}`)))
  })
  return {
    url,
    dbPath,
    process: child,
    output: () => output,
    async stop(signal = 'SIGTERM') {
      if (child.exitCode !== null || child.signalCode !== null) return
      const exited = new Promise(r => child.once('exit', r))
      child.kill(signal)
      await exited
    },
    async api(path, init = {}) {
      const response = await fetch(`${url}${path}`, {
        method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
        headers: { ...(init.body === undefined ? {} : { 'content-type': 'application/json' }), ...init.headers },
        body: init.body === undefined ? undefined : typeof init.body === 'string' ? init.body : JSON.stringify(init.body),
      })
      const text = await response.text()
      let body: any = text
      try { body = text ? JSON.parse(text) : null }
      catch { /* not JSON */ }
      return { status: response.status, body, headers: response.headers }
    },
  }
}

/** Polls until `check` returns a value, or fails after `timeoutMs`. */
export async function waitFor<T>(check: () => Promise<T | undefined | false> | T | undefined | false, timeoutMs = 10_000, what = 'condition'): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = await check()
    if (value) return value
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise(r => setTimeout(r, 25))
  }
}

/** Reads an SSE response into events until the stream ends. */
export async function readSse(url: string, headers: Record<string, string> = {}, timeoutMs = 10_000) {
  return (await openSse(url, headers, timeoutMs)).events
}

/** Connects to an SSE stream: resolves once it is open; `events` settles when the stream ends (or fails after `timeoutMs`). */
export async function openSse(url: string, headers: Record<string, string> = {}, timeoutMs = 10_000) {
  const response = await fetch(url, { headers, signal: AbortSignal.timeout(timeoutMs) })
  return { status: response.status, events: response.text().then(parseSse) }
}

/** The events of an SSE body: id, event name and JSON data each. */
export function parseSse(text: string) {
  return text.split('\n\n').filter(block => block.includes('data:')).map((block) => {
    const field = (name: string) => block.split('\n').find(line => line.startsWith(`${name}: `))?.slice(name.length + 2)
    return { id: Number(field('id')), event: field('event')!, data: JSON.parse(field('data')!) }
  })
}

/** A built server wired to a fake LLM server, started before the file's tests and stopped after. */
export function useAppWithFakeLLM(
  hooks: { beforeAll: (fn: () => Promise<void>) => void, afterAll: (fn: () => Promise<void>) => void },
  /** Where the server keeps its data (default: a new SQLite file), given the fake's environment. */
  place?: (env: Record<string, string>) => Promise<Parameters<typeof startAppServer>[0]>,
) {
  const context = { fake: new FakeLLM(), server: undefined as unknown as AppServer }
  hooks.beforeAll(async () => {
    await context.fake.start()
    context.server = await startAppServer(place ? await place(context.fake.env()) : { env: context.fake.env() })
  })
  hooks.afterAll(async () => {
    await context.server?.stop()
    await context.fake.stop()
  })
  return context
}

type Hook = (fn: () => Promise<void>) => void

/**
 * A fake LLM server started before the file's tests, and app servers the tests start (`start`, on
 * the databases they name) as they go: all killed after the file's tests, the fake stopped. Given
 * `afterEach`, the servers are killed after each test instead and the fake's script reset.
 */
export function useServersWithFakeLLM(hooks: { beforeAll: Hook, afterAll: Hook, afterEach?: Hook }) {
  const fake = new FakeLLM()
  const servers: AppServer[] = []
  const stopAll = async () => {
    for (const s of servers.splice(0)) await s.stop('SIGKILL')
  }
  hooks.beforeAll(async () => { await fake.start() })
  hooks.afterEach?.(async () => {
    await stopAll()
    fake.reset()
  })
  hooks.afterAll(async () => {
    await stopAll()
    await fake.stop()
  })
  const start = async (options: Parameters<typeof startAppServer>[0]) => {
    const server = await startAppServer(options)
    servers.push(server)
    return server
  }
  return { fake, start }
}
