/**
 * The load test: 200 clients starting runs of the quality gate for 30 s (the draft pinned, the judge
 * behind the fake LLM server answering after 50 ms, through the real SDK), while 500 clients follow
 * runs over SSE. Reports runs/s, API latency, errors (must be 0), that every run finished, and the
 * peak RSS of the server (and of the workers, in PostgreSQL mode: `load-postgres.ts`).
 */
import { readFileSync } from 'node:fs'
import autocannon from 'autocannon'
import Database from 'better-sqlite3'
import { FakeLLM } from '../tests/support/fake-llm'
import { startAppServer, type AppServer } from '../tests/support/app-server'
import { report } from './lib'
import { cpuByKind, sample } from './process-usage'

const CLIENTS = 200
const SUBSCRIBERS = 500
const SECONDS = Number(process.env.JUDGEFLOW_LOAD_SECONDS) || 30

const gate = {
  name: 'load gate',
  nodes: [
    { id: 'in', type: 'input' },
    { id: 'draft', type: 'llm', config: { model: 'openai:gpt-4o-mini', prompt: 'Answer {{input.question}}' }, pinned: ['To reset it: open Settings, choose Forgot password, follow the link.'] },
    { id: 'judge', type: 'evaluator', config: { evaluation_type: 'criteria', model: 'openai:gpt-4o-mini', criteria: [{ name: 'relevance', weight: 1 }], content: '{{steps.draft.text}}', context: '{{input.question}}', cache: false } },
    { id: 'check', type: 'condition', config: { left: '{{steps.judge.passed}}', op: 'truthy' } },
    { id: 'ok', type: 'output', config: { verdict: 'pass' } },
    { id: 'ko', type: 'output', config: { verdict: 'fail' } },
  ],
  edges: [{ from: 'in', to: 'draft' }, { from: 'draft', to: 'judge' }, { from: 'judge', to: 'check' }, { from: 'check', to: 'ok', when: 'true' }, { from: 'check', to: 'ko', when: 'false' }],
}

/** Resident set size of a process, from /proc (Linux), in MiB; 0 once it has exited. */
function rssOf(pid: number): number {
  let status = ''
  try {
    status = readFileSync(`/proc/${pid}/status`, 'utf8')
  }
  catch {
    return 0
  }
  const match = /VmRSS:\s+(\d+) kB/.exec(status)
  return match ? Number(match[1]) / 1024 : 0
}

/** Holds an SSE connection open on a run's events until the run finishes or the test ends. */
async function subscribe(url: string, signal: AbortSignal): Promise<'finished' | 'aborted' | 'error'> {
  try {
    const response = await fetch(url, { signal })
    if (response.status === 204) return 'finished'
    if (!response.ok || !response.body) return 'error'
    const reader = response.body.getReader()
    const decoder = new TextDecoder()
    let text = ''
    for (;;) {
      const { done, value } = await reader.read()
      if (done) return text.includes('run.finished') ? 'finished' : 'error'
      text += decoder.decode(value, { stream: true })
      if (text.includes('event: run.finished')) {
        await reader.cancel()
        return 'finished'
      }
    }
  }
  catch {
    return signal.aborted ? 'aborted' : 'error'
  }
}

/** What the load runs against: a built server, the processes whose memory counts, and the runs by status. */
export interface LoadTarget {
  server: AppServer
  /** The processes whose peak RSS is reported, by name (the server's first). */
  processes: Record<string, number>
  /** How many runs are queued or running. */
  unfinished(): Promise<number>
  /** How many runs there are, by status. */
  statuses(): Promise<Array<{ status: string, n: number }>>
  /** Called as the load ends, before the queue drains, with the starts accepted. */
  afterLoad?(accepted: number): Promise<void>
  /** The targets of the start rate and the API latency (SQLite mode's unless given). */
  targets?: { starts: string, p50: string, p99: string }
}

/** The judge behind the fake LLM server, answering after 50 ms. */
export async function startLoadJudge(): Promise<FakeLLM> {
  const fake = await new FakeLLM().start()
  fake.onRequest(() => ({ json: { criteria_scores: { relevance: 0.9 }, criteria_reasons: { relevance: 'on topic' }, feedback: 'Good.', suggestions: [] }, delayMs: 50 }))
  return fake
}

/**
 * The server's env for the load: every subscriber connects from 127.0.0.1, so as one client it needs
 * more streams than the default 20; the run queue is bounded above what 30 s of starts can fill on a
 * fast machine (the server accepts starts faster than it executes them); and the heap ceiling
 * `npm start` runs the server with (without one, V8 on a large machine lets garbage grow for GiBs).
 */
export const LOAD_ENV = {
  JUDGEFLOW_MAX_CONCURRENT_RUNS: '64', JUDGEFLOW_MAX_QUEUED_RUNS: '1000000', JUDGEFLOW_MAX_SSE_PER_CLIENT: '1000',
  NODE_OPTIONS: '--max-old-space-size=1024',
}

/** What a process of the load is, from its command line. */
function loadProcessKind(commandLine: string): string {
  if (commandLine.includes('.output/server')) return 'server'
  if (commandLine.includes(' worker')) return 'workers'
  if (/(^|\/)postgres\b/.test(commandLine)) return 'PostgreSQL'
  return 'other'
}

/** Drives the load against `target` and reports; `label` names the setup in each figure's name ('' for the SQLite default). */
export async function driveLoad(target: LoadTarget, label = ''): Promise<void> {
  const { server } = target
  const name = (what: string) => `load${label}: ${what}`
  const targets = target.targets ?? { starts: '>= 200', p50: '<= 100', p99: '<= 500' }
  const peakRss = new Map(Object.keys(target.processes).map(process => [process, 0]))
  const sampler = setInterval(() => {
    for (const [process, pid] of Object.entries(target.processes)) peakRss.set(process, Math.max(peakRss.get(process)!, rssOf(pid)))
  }, 250)
  const subscriptions = new AbortController()
  try {
    const { body: wf } = await server.api('/api/workflows', { body: gate })
    const load = autocannon({
      url: `${server.url}/api/workflows/${wf.id}/runs`,
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ input: { question: 'How do I reset my password?' } }),
      connections: CLIENTS,
      duration: SECONDS,
    })
    // The latency tail by second of the load (BENCH_LOAD_SECONDS_TAIL=1): the first seconds carry cold code and connections.
    const bySecond: number[][] = []
    const loadStarted = performance.now()
    if (process.env.BENCH_LOAD_SECONDS_TAIL) {
      ;(load as unknown as NodeJS.EventEmitter).on('response', (_client: unknown, _status: number, _bytes: number, ms: number) => {
        const second = Math.floor((performance.now() - loadStarted) / 1000)
        ;(bySecond[second] ??= []).push(ms)
      })
    }
    // While the load goes on, 500 subscribers each start a run and follow it over SSE to its end.
    const followed = Array.from({ length: SUBSCRIBERS }, async () => {
      const { status, body: run } = await server.api(`/api/workflows/${wf.id}/runs`, { body: { input: { question: 'How do I reset my password?' } } })
      return status === 202 ? subscribe(`${server.url}/api/runs/${run.id}/events`, subscriptions.signal) : 'error'
    })
    const cpuBefore = sample(loadProcessKind)
    const result = await load
    const cpu = cpuByKind(cpuBefore, sample(loadProcessKind))
    if (bySecond.length) {
      const p99 = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length * 0.99)] ?? 0
      console.error(`${name('p99 by second')}: ${bySecond.map((v, i) => `${i}:${v.length}/${Math.round(p99(v))}`).join(' ')}`)
      console.error(`${name('p99 after the first 2 s')}: ${Math.round(p99(bySecond.slice(2).flat()))} ms`)
    }
    const errors = result.non2xx + result.errors + result.timeouts
    report({ name: name(`run starts per second (${CLIENTS} clients, ${SECONDS} s, judge at 50 ms, ${SUBSCRIBERS} SSE subscribers)`), value: result['2xx'] / SECONDS, unit: 'runs/s', target: targets.starts })
    report({ name: name('API latency p50'), value: result.latency.p50, unit: 'ms', target: targets.p50 })
    report({ name: name('API latency p99'), value: result.latency.p99, unit: 'ms', target: targets.p99 })
    report({ name: name('errors (non-2xx, connection errors, timeouts)'), value: errors, unit: 'count', target: '= 0' })
    // Where the machine's CPU went while the starts came in (the driver: the load's clients, the subscribers and the fake LLM).
    for (const [kind, ms] of [...cpu].sort((a, b) => b[1] - a[1])) {
      if (kind !== 'other') report({ name: name(`CPU of the ${kind} during the load, per accepted start`), value: ms / Math.max(result['2xx'], 1), unit: 'ms', target: 'reported' })
    }
    await target.afterLoad?.(result['2xx'])
    // Every accepted run must finish, and every subscriber must see its run finish.
    const loadEnded = performance.now()
    const deadline = Date.now() + 15 * 60_000
    while (await target.unfinished() > 0 && Date.now() < deadline) await new Promise(resolve => setTimeout(resolve, 500))
    if (label) report({ name: name('seconds for the queue to drain after the load'), value: (performance.now() - loadEnded) / 1000, unit: 's', target: 'reported' })
    const statuses = await target.statuses()
    const total = statuses.reduce((s, r) => s + r.n, 0)
    const succeeded = statuses.find(r => r.status === 'succeeded')?.n ?? 0
    if (label) report({ name: name('runs accepted (all started runs)'), value: total, unit: 'count', target: 'reported' })
    report({ name: name('runs finished, of all accepted'), value: succeeded / total, unit: 'share', target: '= 1' })
    const seen = await Promise.all(followed)
    report({ name: name(`SSE subscribers that saw their run finish (of ${SUBSCRIBERS})`), value: seen.filter(s => s === 'finished').length, unit: 'count', target: `= ${SUBSCRIBERS}` })
    for (const [process, peak] of peakRss) report({ name: name(`${process} peak RSS`), value: Math.round(peak), unit: 'MiB', target: '<= 1024' })
  }
  finally {
    clearInterval(sampler)
    subscriptions.abort()
  }
}

export async function benchLoad(): Promise<void> {
  const fake = await startLoadJudge()
  const server = await startAppServer({ env: { ...fake.env(), ...LOAD_ENV } })
  const db = new Database(server.dbPath, { readonly: true })
  try {
    const open = db.prepare(`select count(*) as n from runs where status in ('queued', 'running')`)
    await driveLoad({
      server,
      processes: { server: server.process.pid! },
      unfinished: async () => (open.get() as { n: number }).n,
      statuses: async () => db.prepare('select status, count(*) as n from runs group by status').all() as Array<{ status: string, n: number }>,
    })
  }
  finally {
    db.close()
    await server.stop()
    await fake.stop()
  }
}
