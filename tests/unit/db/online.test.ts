import { afterAll, describe, expect, it } from 'vitest'
import type { Store } from '../../../core'
import type { NewOnlineRule, OnlineDecisionRow, OnlineSpanRow } from '../../../core/online-rows'
import { FEED_TEXT_CHARS } from '../../../db/online'
import { stopStores, storeFactories } from '../../support/stores'

afterAll(() => stopStores())

const rule: NewOnlineRule = {
  name: 'helpfulness', enabled: true, evaluator: { workflow_id: 'w1', step_id: 'judge' }, filter: { model: 'gpt-4o' },
  sampleRate: 0.25, maxPerMinute: 60, maxCostUsdPerDay: null,
}

function span(n: number, over: Partial<OnlineSpanRow> = {}): OnlineSpanRow {
  return {
    traceId: 'a'.repeat(31) + (n % 10), spanId: `${'b'.repeat(15)}${n % 10}`, parentSpanId: null, name: 'chat gpt-4o', serviceName: 'shop',
    operation: 'chat', model: 'gpt-4o', inputText: `question ${n}`, outputText: `answer ${n}`, systemInstructions: null,
    usage: { input_tokens: 10, output_tokens: null }, statusCode: 0, startedAt: 1_000 + n, endedAt: 2_000 + n, attributes: { 'gen_ai.operation.name': 'chat', n }, receivedAt: 3_000,
    ...over,
  }
}

function decision(ruleId: string, s: OnlineSpanRow, status: string, decidedAt: number): OnlineDecisionRow {
  return { ruleId, traceId: s.traceId, spanId: s.spanId, status, reason: status === 'filtered' ? 'the model is "x"' : null, score: null, verdict: null, runId: null, costUsd: null, decidedAt, claimedAt: null, updatedAt: decidedAt }
}

describe.each(storeFactories)('online scoring storage ($name)', (factory) => {
  let store: Store

  it('keeps rules: created with an id, listed, replaced, deleted with their decisions', async () => {
    store = await factory.open()
    const created = await store.online.createRule(rule)
    expect(created).toMatchObject({ ...rule, id: expect.any(String) })
    expect(await store.online.getRule(created.id)).toEqual(created)
    const paused = await store.online.updateRule(created.id, { ...rule, enabled: false, filter: { attributes: { 'app.tier': 'gold', 'n': 3, 'ok': true } } })
    expect(paused).toMatchObject({ enabled: false, filter: { attributes: { 'app.tier': 'gold', 'n': 3, 'ok': true } }, createdAt: created.createdAt })
    expect(await store.online.listRules()).toEqual([paused])
    expect(await store.online.updateRule('nope', rule)).toBeNull()
    const s = span(1)
    await store.online.ingest([s], [decision(created.id, s, 'queued', 5)])
    expect(await store.online.deleteRule(created.id)).toBe(true)
    expect(await store.online.deleteRule(created.id)).toBe(false)
    expect(await store.online.decisions({ limit: 10 })).toEqual([])
    // The span stays: another rule may see it.
    expect(await store.online.getSpan(s.traceId, s.spanId)).toEqual(s)
    await store.close()
  })

  it('stores a request\'s spans and decisions once: a span sent again changes nothing, and a batch past one statement\'s rows goes whole', async () => {
    store = await factory.open()
    const { id } = await store.online.createRule(rule)
    const many = Array.from({ length: 1_200 }, (_, n) => span(n, { traceId: n.toString(16).padStart(32, '0'), spanId: (n + 1).toString(16).padStart(16, '0') }))
    expect(await store.online.ingest(many, many.map((s, n) => decision(id, s, n % 2 ? 'sampled_out' : 'queued', n)))).toEqual({ spans: 1_200, decisions: 1_200 })
    expect(await store.online.ingest(many.slice(0, 3), many.slice(0, 3).map(s => decision(id, s, 'scored', 9_999)))).toEqual({ spans: 0, decisions: 0 })
    const queued = await store.online.decisions({ ruleId: id, status: 'queued', limit: 2 })
    expect(queued.map(d => [d.status, d.decidedAt])).toEqual([['queued', 1_198], ['queued', 1_196]])
    expect(queued[0]!.span).toEqual({ name: 'chat gpt-4o', serviceName: 'shop', model: 'gpt-4o', inputText: 'question 1198', outputText: 'answer 1198', startedAt: 2_198 })
    const [third] = await store.online.decisions({ ruleId: id, status: 'queued', after: { decidedAt: 4, traceId: 'f', spanId: 'f', ruleId: id }, limit: 1 })
    expect((await store.online.decisions({ ruleId: id, after: third, limit: 10 })).map(d => d.decidedAt)).toEqual([3, 2, 1, 0])
    // Decisions taken at the same time (one request's) page on from the key, none skipped nor repeated.
    const same = many.slice(0, 4).map(s => decision(id, { ...s, traceId: s.traceId.replace(/^0/, 'f') }, 'queued', 50_000))
    await store.online.ingest(same.map((d, n) => ({ ...many[n]!, traceId: d.traceId })), same)
    const first = await store.online.decisions({ ruleId: id, limit: 2 })
    const rest = await store.online.decisions({ ruleId: id, after: first[1], limit: 2 })
    expect([...first, ...rest].map(d => d.traceId)).toEqual(same.map(d => d.traceId).reverse())
    await store.close()
  })

  it('records what became of a decision, and carries only the start of long texts in the feed', async () => {
    store = await factory.open()
    const { id } = await store.online.createRule(rule)
    const long = span(2, { inputText: 'x'.repeat(FEED_TEXT_CHARS + 500) })
    await store.online.ingest([long], [decision(id, long, 'queued', 10)])
    expect(await store.online.updateDecision({ ruleId: id, traceId: long.traceId, spanId: long.spanId }, { status: 'scored', score: 0.8, verdict: 'pass', runId: 'r1', costUsd: 0.001 })).toBe(true)
    expect(await store.online.updateDecision({ ruleId: id, traceId: long.traceId, spanId: 'c'.repeat(16) }, { status: 'failed' })).toBe(false)
    const [view] = await store.online.decisions({ limit: 5 })
    expect(view).toMatchObject({ status: 'scored', score: 0.8, verdict: 'pass', runId: 'r1', costUsd: 0.001, decidedAt: 10 })
    expect(view!.span!.inputText).toHaveLength(FEED_TEXT_CHARS)
    expect((await store.online.getSpan(long.traceId, long.spanId))!.inputText).toHaveLength(FEED_TEXT_CHARS + 500)
    await store.close()
  })

  it('hands out queued decisions oldest first, claims each for one run only, and sums what a rule\'s scorings cost since a time', async () => {
    store = await factory.open()
    const { id } = await store.online.createRule(rule)
    const [a, b, c] = [3, 4, 5].map(n => span(n))
    await store.online.ingest([a!, b!, c!], [decision(id, a!, 'queued', 30), decision(id, b!, 'queued', 20), { ...decision(id, c!, 'scored', 10), costUsd: 0.25 }])
    expect((await store.online.queued(id, 10)).map(d => d.decidedAt)).toEqual([20, 30])
    expect(await store.online.queued('another rule', 10)).toEqual([])
    const unlimited = { now: 7_000, maxPerMinute: null }
    expect(await store.online.claim(id, [{ traceId: b!.traceId, spanId: b!.spanId, runId: 'run-1' }], unlimited)).toEqual([true])
    expect(await store.online.claim(id, [{ traceId: b!.traceId, spanId: b!.spanId, runId: 'run-2' }, { traceId: c!.traceId, spanId: c!.spanId, runId: 'run-3' }], unlimited)).toEqual([false, false])
    expect((await store.online.queued(id, 1))[0]).toMatchObject({ runId: 'run-1', claimedAt: 7_000 })
    expect(await store.online.spentSince(id, 0)).toBe(0.25)
    expect(await store.online.spentSince(id, 11)).toBe(0)
    // Decisions by rule and status since a time, for the rules list.
    const other = await store.online.createRule({ ...rule, name: 'other' })
    await store.online.ingest([], [decision(other.id, a!, 'filtered', 40)])
    const order = <T extends { ruleId: string, status: string }>(list: T[]) => [...list].sort((x, y) => `${x.ruleId} ${x.status}`.localeCompare(`${y.ruleId} ${y.status}`))
    const counted = async (since: number) => order(await store.online.decisionCounts(since))
    expect(await counted(0)).toEqual(order([{ ruleId: id, status: 'queued', count: 2 }, { ruleId: id, status: 'scored', count: 1 }, { ruleId: other.id, status: 'filtered', count: 1 }]))
    expect(await counted(25)).toEqual(order([{ ruleId: id, status: 'queued', count: 1 }, { ruleId: other.id, status: 'filtered', count: 1 }]))
    const child = { ...span(3), spanId: 'e'.repeat(16), parentSpanId: a!.spanId, startedAt: 0 }
    await store.online.ingest([child], [])
    expect((await store.online.traceSpans(a!.traceId, 10)).map(s => s.spanId)).toEqual([child.spanId, a!.spanId])
    await store.close()
  })

  it('claims within max_per_minute counted in the database: two handles claiming at once take the limit between them, and a minute later the next', async () => {
    const location = await factory.durable()
    const [one, two] = [factory.openAt(location), factory.openAt(location)]
    const { id } = await one.online.createRule({ ...rule, maxPerMinute: 3 })
    const rows = Array.from({ length: 8 }, (_, n) => span(n, { traceId: (n + 1).toString(16).padStart(32, '0') }))
    await one.online.ingest(rows, rows.map((s, n) => decision(id, s, 'queued', n)))
    const claims = (tag: string) => rows.map((s, n) => ({ traceId: s.traceId, spanId: s.spanId, runId: `${tag}-${n}` }))
    const at = (now: number) => ({ now, maxPerMinute: 3 })
    // In opposite orders: neither waits on a row the other holds, only on the rule.
    const [first, second] = await Promise.all([one.online.claim(id, claims('one'), at(100_000)), two.online.claim(id, claims('two').reverse(), at(100_000))])
    expect([...first, ...second].filter(Boolean)).toHaveLength(3)
    expect(await one.online.claim(id, claims('one'), at(159_999))).toEqual(rows.map(() => false))
    expect((await two.online.claim(id, claims('two'), at(160_000))).filter(Boolean)).toHaveLength(3)
    expect((await one.online.queued(id, 10)).filter(d => d.runId === null)).toHaveLength(2)
    await one.close()
    await two.close()
  })

  it('prunes spans received past the retention age with their decisions, in batches, never one a rule still has queued', async () => {
    store = await factory.open()
    const { id } = await store.online.createRule(rule)
    const rows = Array.from({ length: 5 }, (_, n) => span(n, { traceId: (n + 1).toString(16).padStart(32, '0'), receivedAt: n < 4 ? 1_000 : 9_000 }))
    await store.online.ingest(rows, rows.map((s, n) => decision(id, s, n === 0 ? 'queued' : 'scored', 5)))
    expect(await store.retention.prune({ now: 10_000, maxAgeMs: 5_000, batchSize: 2 })).toMatchObject({ onlineSpans: 3 })
    expect((await store.online.decisions({ limit: 10 })).map(d => d.traceId).sort()).toEqual([rows[0]!.traceId, rows[4]!.traceId])
    expect(await store.online.getSpan(rows[1]!.traceId, rows[1]!.spanId)).toBeNull()
    await store.close()
  })
})
