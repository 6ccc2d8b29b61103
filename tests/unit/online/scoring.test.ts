import { afterEach, describe, expect, it } from 'vitest'
import { createJudgeflow, loadConfig, type Judgeflow } from '../../../core'
import type { NewOnlineRule, OnlineDecisionRow, OnlineSpanRow } from '../../../core/online-rows'
import { OnlineScoring } from '../../../core/online/scoring'
import { createSqliteStore, openDatabase } from '../../../db'
import { waitFor } from '../../support/app-server'

/** Queued decisions scored by durable runs of the rule's evaluator (the offline judge), within the rule's limits. */
let app: Judgeflow | undefined
afterEach(async () => {
  await app?.close(0)
  app = undefined
})

const criteria = { evaluation_type: 'criteria', model: 'local:heuristic', criteria: [{ name: 'helpfulness', weight: 1 }], pass_threshold: 0.5 }
const rule = (over: Partial<NewOnlineRule> = {}): NewOnlineRule => ({
  name: 'helpful', enabled: true, evaluator: { config: criteria }, filter: {}, sampleRate: 1, maxPerMinute: null, maxCostUsdPerDay: null, ...over,
})

function span(n: number): OnlineSpanRow {
  return {
    traceId: n.toString(16).padStart(32, 'a'), spanId: 'b'.repeat(16), parentSpanId: null, name: 'chat', serviceName: 'shop', operation: 'chat', model: 'gpt-4o',
    inputText: 'How long do refunds take?', outputText: 'Refunds are paid back within 5 business days to the card you paid with.', systemInstructions: null,
    usage: null, statusCode: 0, startedAt: 1, endedAt: 2, attributes: {}, receivedAt: 3,
  }
}
const decision = (ruleId: string, s: OnlineSpanRow, over: Partial<OnlineDecisionRow> = {}): OnlineDecisionRow => ({
  ruleId, traceId: s.traceId, spanId: s.spanId, status: 'queued', reason: null, score: null, verdict: null, runId: null, costUsd: null, decidedAt: 10, claimedAt: null, updatedAt: 10, ...over,
})

function setUp(clock: { now: number }, batch?: number) {
  app = createJudgeflow(loadConfig({}), { store: createSqliteStore(openDatabase(':memory:')), retention: false })
  return { store: app.store, scoring: new OnlineScoring({ store: app.store, runs: app.runs, now: () => clock.now, batch }) }
}

describe('online scoring', () => {
  it('scores queued spans with durable runs of the rule\'s evaluator, and delays those past max_per_minute rather than dropping them', async () => {
    const clock = { now: Date.UTC(2026, 0, 1, 12) }
    const { store, scoring } = setUp(clock)
    const { id } = await store.online.createRule(rule({ maxPerMinute: 2 }))
    const spans = [1, 2, 3].map(span)
    await store.online.ingest(spans, spans.map(s => decision(id, s)))
    expect(await scoring.pump()).toBe(2)
    const scored = () => store.online.decisions({ ruleId: id, status: 'scored', limit: 10 })
    await waitFor(async () => (await scored()).length === 2 || undefined, 10_000, 'two scorings')
    expect(await store.online.decisions({ ruleId: id, status: 'queued', limit: 10 })).toHaveLength(1)
    expect(await scoring.pump()).toBe(0)
    clock.now += 61_000
    expect(await scoring.pump()).toBe(1)
    await waitFor(async () => (await scored()).length === 3 || undefined, 10_000, 'the third scoring')
    for (const d of await scored()) {
      expect(d.score).toBeGreaterThanOrEqual(0)
      expect(d.score).toBeLessThanOrEqual(1)
      expect(['pass', 'fail']).toContain(d.verdict)
      expect(await store.runs.get(d.runId!)).toMatchObject({ status: 'succeeded', input: { content: spans[0]!.outputText, context: spans[0]!.inputText } })
    }
  })

  it('keeps no rule\'s spans waiting behind another rule held by its limit, and starts nothing for a paused rule', async () => {
    const clock = { now: Date.UTC(2026, 0, 1, 12) }
    const { store, scoring } = setUp(clock, 2)
    const slow = await store.online.createRule(rule({ name: 'slow', maxPerMinute: 1 }))
    const fast = await store.online.createRule(rule({ name: 'fast' }))
    const paused = await store.online.createRule(rule({ name: 'paused', enabled: false }))
    const spans = [1, 2, 3, 4, 5].map(span)
    await store.online.ingest(spans, [
      ...spans.slice(0, 4).map((s, n) => decision(slow.id, s, { decidedAt: n })),
      decision(fast.id, spans[4]!, { decidedAt: 10 }), decision(paused.id, spans[4]!, { decidedAt: 10 }),
    ])
    expect(await scoring.pump()).toBe(2)
    await waitFor(async () => (await store.online.decisions({ ruleId: fast.id, status: 'scored', limit: 1 })).length || undefined, 10_000, 'the fast rule\'s scoring')
    expect(await store.online.decisions({ ruleId: paused.id, limit: 5 })).toMatchObject([{ status: 'queued', runId: null }])
  })

  it('scores with a saved workflow\'s evaluator step judging the span instead of what the step judged in its workflow', async () => {
    const { store, scoring } = setUp({ now: Date.now() })
    const workflow = await store.workflows.create({
      name: 'support', nodes: [{ id: 'input', type: 'input' }, { id: 'judge', type: 'evaluator', config: { ...criteria, content: '{{answer.output}}' } }], edges: [{ from: 'input', to: 'judge' }],
    })
    const { id } = await store.online.createRule(rule({ evaluator: { workflow_id: workflow.id, step_id: 'judge' } }))
    await store.online.ingest([span(1)], [decision(id, span(1))])
    expect(await scoring.pump()).toBe(1)
    await waitFor(async () => (await store.online.decisions({ ruleId: id, status: 'scored', limit: 1 })).length || undefined, 10_000, 'the scoring')
  })

  it('hands the trace type the call\'s trace: its tool calls from its messages and its execute_tool child spans', async () => {
    const { store, scoring } = setUp({ now: Date.now() })
    const { id } = await store.online.createRule(rule({ evaluator: { config: { evaluation_type: 'trace', pass_threshold: 0.5, trace: { embedder: 'hashed' } } } }))
    const call = { ...span(1), attributes: { 'gen_ai.operation.name': 'chat', 'gen_ai.input.messages': JSON.stringify([{ role: 'user', parts: [{ type: 'text', content: 'Refund order 7?' }] }]) } }
    const tool = {
      ...span(1), spanId: 'c'.repeat(16), parentSpanId: call.spanId, name: 'execute_tool lookup_order', operation: 'execute_tool', inputText: null, outputText: null, startedAt: 5,
      attributes: { 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': 'lookup_order', 'gen_ai.tool.call.arguments': '{"order":7}', 'gen_ai.tool.call.result': '{"paid":true}' },
    }
    await store.online.ingest([call, tool], [decision(id, call)])
    expect(await scoring.pump()).toBe(1)
    const [scored] = await waitFor(async () => {
      const done = await store.online.decisions({ ruleId: id, status: 'scored', limit: 1 })
      return done.length ? done : undefined
    }, 10_000, 'the trace scoring')
    const run = await store.runs.get(scored!.runId!)
    expect((run!.input as { trace: { task: unknown, steps: unknown[] } }).trace).toMatchObject({
      task: { objective: 'Refund order 7?' },
      steps: [{ type: 'tool_call', tool: { name: 'lookup_order' }, input: { order: 7 } }, { type: 'observation', output: { paid: true } }],
    })
  })

  it('marks a span over_budget once the rule\'s scorings today cost max_cost_usd_per_day, saying so', async () => {
    const clock = { now: Date.UTC(2026, 0, 1, 12) }
    const { store, scoring } = setUp(clock)
    const { id } = await store.online.createRule(rule({ maxCostUsdPerDay: 0.5 }))
    clock.now = Date.now()
    // A scoring that ended today, and one the day before.
    await store.online.ingest([span(1), span(2), span(3)], [
      decision(id, span(1), { status: 'scored', costUsd: 0.6, updatedAt: clock.now }),
      decision(id, span(3), { status: 'scored', costUsd: 5, updatedAt: clock.now - (clock.now % 86_400_000) - 1 }),
      decision(id, span(2)),
    ])
    expect(await scoring.pump()).toBe(0)
    const [over] = await store.online.decisions({ ruleId: id, status: 'over_budget', limit: 1 })
    expect(over).toMatchObject({ spanId: span(2).spanId, reason: expect.stringMatching(/^the rule's budget of \$0\.5 a day \(max_cost_usd_per_day\) is spent: \$0\.6000 since 00:00 UTC$/) })
  })

  it('has at most maxInFlight scorings in flight, starting a few before each turn of the event loop, until every queued span is scored', async () => {
    const { store } = setUp({ now: Date.now() })
    const { id } = await store.online.createRule(rule())
    const spans = Array.from({ length: 24 }, (_, n) => span(n + 1))
    await store.online.ingest(spans, spans.map(s => decision(id, s)))
    let most = 0
    let starts = 0
    const runs = {
      start: (request: Parameters<Judgeflow['runs']['start']>[0]) => {
        starts++
        most = Math.max(most, scoring.scoringsInFlight)
        return app!.runs.start(request)
      },
      // Each scoring holds its place a little after its run: long enough for the cap to be met.
      whenEnded: async (runId: string) => {
        const run = await app!.runs.whenEnded(runId)
        await new Promise(resolve => setTimeout(resolve, 20))
        return run
      },
    }
    const scoring = new OnlineScoring({ store, runs, maxInFlight: 3, startsPerTick: 2 })
    // Each scoring's end makes room for the next and pumps at once, not at the timer's next round (a minute away here).
    scoring.start(60_000)
    try {
      expect(await scoring.pump()).toBeGreaterThanOrEqual(3)
      await waitFor(async () => (await store.online.decisions({ ruleId: id, status: 'scored', limit: 50 })).length === 24 || undefined, 20_000, 'every span scored')
    }
    finally {
      scoring.stop()
    }
    expect(starts).toBe(24)
    expect(most).toBe(3)
    expect(scoring.scoringsInFlight).toBe(0)
  })

  it('starts again, with the same id, a scoring claimed whose run a crash left unstored', async () => {
    const { store, scoring } = setUp({ now: Date.now() })
    const { id } = await store.online.createRule(rule())
    await store.online.ingest([span(1)], [decision(id, span(1), { runId: '6f1c1c52-0000-4000-8000-000000000001' })])
    await scoring.pump()
    await waitFor(async () => (await store.online.decisions({ ruleId: id, status: 'scored', limit: 1 })).length || undefined, 10_000, 'the scoring')
    expect((await store.online.decisions({ ruleId: id, limit: 1 }))[0]!.runId).toBe('6f1c1c52-0000-4000-8000-000000000001')
  })
})
