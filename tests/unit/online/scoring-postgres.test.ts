import { randomUUID } from 'node:crypto'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { createJudgeflow, loadConfig, type Judgeflow } from '../../../core'
import { ingestSpans } from '../../../core/online/ingest'
import { OnlineScoring } from '../../../core/online/scoring'
import type { NewOnlineRule } from '../../../core/online-rows'
import { createPgRunQueue, createPostgresStore } from '../../../db/pg'
import { readOtlpTraces } from '../../../engine/online/otlp'
import { sampled } from '../../../engine/online/selection'
import { waitFor } from '../../support/app-server'
import { startPostgres, type TestPostgres } from '../../support/postgres'

/**
 * Online scoring scaled out on PostgreSQL: spans taken in by a web process that executes no run,
 * their scorings queued through pg-boss and executed by a worker process's app, decisions ending
 * `scored` — across a web process that dies with scorings claimed, and with max_per_minute shared
 * by two web processes. Each process is an app of its own on the one database, as the run-queue tests do.
 */
let postgres: TestPostgres
beforeAll(async () => { postgres = await startPostgres() }, 60_000)
afterAll(async () => { await postgres?.stop() })

const apps: Judgeflow[] = []
afterEach(async () => {
  for (const app of apps.splice(0)) await app.close(0)
})

const criteria = { evaluation_type: 'criteria', model: 'local:heuristic', criteria: [{ name: 'helpfulness', weight: 1 }], pass_threshold: 0.5 }
const rule = (over: Partial<NewOnlineRule> = {}): NewOnlineRule => ({
  name: 'helpful', enabled: true, evaluator: { config: criteria }, filter: {}, sampleRate: 1, maxPerMinute: null, maxCostUsdPerDay: null, ...over,
})

/** One process's judgeflow on the database: it executes queued runs `work` at a time, none when 0 (a web process started with --no-worker). */
async function processOn(url: string, owner: string, work = 0): Promise<Judgeflow> {
  const store = createPostgresStore(url, { poolSize: 4 })
  const app = createJudgeflow(loadConfig({}), { store, queue: createPgRunQueue(url, { store }), owner, retention: false })
  apps.push(app)
  if (work) await app.runs.work(work)
  return app
}

const text = (key: string, value: string) => ({ key, value: { stringValue: value } })

/** An OTLP/JSON export request of `count` GenAI chat spans, as POST /v1/traces reads it. */
function exportRequest(from: number, count: number) {
  const spans = Array.from({ length: count }, (_, i) => ({
    traceId: (from + i).toString(16).padStart(32, '0'), spanId: (from + i).toString(16).padStart(16, 'a'), name: 'chat gpt-4o', kind: 3,
    startTimeUnixNano: '1790000000000000000', endTimeUnixNano: '1790000000400000000', status: {},
    attributes: [
      text('gen_ai.operation.name', 'chat'), text('gen_ai.request.model', 'gpt-4o'),
      text('gen_ai.input.messages', JSON.stringify([{ role: 'user', parts: [{ type: 'text', content: `How long do refunds take? (${from + i})` }] }])),
      text('gen_ai.output.messages', JSON.stringify([{ role: 'assistant', parts: [{ type: 'text', content: 'Refunds reach your card within 5 business days.' }] }])),
    ],
  }))
  return { resourceSpans: [{ resource: { attributes: [text('service.name', 'support-bot')] }, scopeSpans: [{ scope: { name: 'shop' }, spans }] }] }
}

/** The spans of an export request stored with the rules' decisions, as the endpoint acknowledges them. */
async function postSpans(app: Judgeflow, from: number, count: number) {
  const read = readOtlpTraces(exportRequest(from, count))
  expect(read.rejected.count).toBe(0)
  expect(await ingestSpans(app.store, read.spans)).toMatchObject({ spans: count, stored: count })
  return read.spans
}

async function decisionsOf(app: Judgeflow, ruleId: string, status?: 'queued' | 'scored') {
  return app.store.online.decisions({ ruleId, status, limit: 500 })
}

describe('online scoring through the PostgreSQL queue', () => {
  it('scores a rule\'s sample on a worker process, taken in and queued by a web process that executes no run', async () => {
    const url = await postgres.database()
    const web = await processOn(url, 'web')
    await processOn(url, 'worker', 4)
    const { id } = await web.store.online.createRule(rule({ sampleRate: 0.5 }))
    const spans = await postSpans(web, 1, 40)
    const inSample = spans.filter(span => sampled(span.trace_id, span.span_id, 0.5))
    expect(inSample.length).toBeGreaterThan(0)
    web.online.start(100)
    const scored = await waitFor(async () => {
      const rows = await decisionsOf(web, id, 'scored')
      return rows.length === inSample.length ? rows : undefined
    }, 30_000, 'every sampled span scored')
    expect(new Set(scored.map(d => d.spanId))).toEqual(new Set(inSample.map(span => span.span_id)))
    for (const decision of scored) {
      expect(decision.score).toBeGreaterThanOrEqual(0)
      expect(await web.store.runs.get(decision.runId!)).toMatchObject({ status: 'succeeded', leaseOwner: 'worker' })
    }
    expect(await decisionsOf(web, id, 'queued')).toEqual([])
  }, 60_000)

  it('scores after a web process died what it acknowledged: its runs queued, one claimed and never started, the rest waiting', async () => {
    const url = await postgres.database()
    const first = await processOn(url, 'web-1')
    const { id } = await first.store.online.createRule(rule())
    await postSpans(first, 100, 30)
    // No worker yet: ten scorings are claimed and queued, one more is claimed and its run never stored.
    expect(await new OnlineScoring({ store: first.store, runs: first.runs, maxInFlight: 10 }).pump()).toBe(10)
    const [unstarted] = (await first.store.online.queued(id, 100)).filter(d => d.runId === null)
    const lostRun = randomUUID()
    const lost = { traceId: unstarted!.traceId, spanId: unstarted!.spanId, runId: lostRun }
    expect(await first.store.online.claim(id, [lost], { now: Date.now(), maxPerMinute: null })).toEqual([true])
    const claimed = new Map((await first.store.online.queued(id, 100)).filter(d => d.runId !== null).map(d => [d.spanId, d.runId]))
    expect(claimed.size).toBe(11)
    // It dies: nothing it follows is recorded (its followers see the store closed).
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {})
    try {
      apps.splice(apps.indexOf(first), 1)
      await first.close(0)
      const second = await processOn(url, 'web-2')
      await processOn(url, 'worker', 4)
      const scoring = new OnlineScoring({ store: second.store, runs: second.runs, claimGraceMs: 500 })
      scoring.start(100)
      try {
        const scored = await waitFor(async () => {
          const rows = await decisionsOf(second, id, 'scored')
          return rows.length === 30 ? rows : undefined
        }, 40_000, 'every acknowledged span scored')
        // The scorings claimed before are those of the same runs: none was started twice.
        for (const decision of scored) if (claimed.has(decision.spanId)) expect(decision.runId).toBe(claimed.get(decision.spanId))
        expect(await second.store.runs.get(lostRun)).toMatchObject({ status: 'succeeded', leaseOwner: 'worker' })
      }
      finally {
        scoring.stop()
      }
    }
    finally {
      logged.mockRestore()
    }
  }, 90_000)

  it('holds max_per_minute across two web processes claiming at once, and starts the rest a minute later', async () => {
    const url = await postgres.database()
    const clock = { now: Date.now() }
    const [one, two] = [await processOn(url, 'web-1'), await processOn(url, 'web-2')]
    await processOn(url, 'worker', 4)
    const { id } = await one.store.online.createRule(rule({ maxPerMinute: 4 }))
    await postSpans(one, 200, 20)
    const scorings = [one, two].map(app => new OnlineScoring({ store: app.store, runs: app.runs, now: () => clock.now, startsPerTick: 3 }))
    const pumpBoth = async () => (await Promise.all(scorings.map(scoring => scoring.pump()))).reduce((a, b) => a + b, 0)
    expect(await pumpBoth()).toBe(4)
    expect(await pumpBoth()).toBe(0)
    const scored = (count: number) => waitFor(async () => (await decisionsOf(one, id, 'scored')).length === count || undefined, 30_000, `${count} scored`)
    await scored(4)
    expect((await one.store.online.queued(id, 100)).filter(d => d.runId === null)).toHaveLength(16)
    clock.now += 60_001
    expect(await pumpBoth()).toBe(4)
    await scored(8)
    // Delayed, never dropped: the others wait their turn.
    expect(await decisionsOf(one, id, 'queued')).toHaveLength(12)
  }, 60_000)
})
