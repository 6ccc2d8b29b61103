import { afterEach, describe, expect, it, vi } from 'vitest'
import type { OnlineDecisionRow, OnlineSpanRow } from '../../../core/online-rows'
import { createSqliteStore, openDatabase, type DbHandle } from '../../../db'
import { onlineDecisions, onlineRules, onlineSpans } from '../../../db/schema'

let handles: DbHandle[] = []
afterEach(() => {
  for (const handle of handles) handle.close()
  handles = []
})

function open(): DbHandle {
  const handle = openDatabase(':memory:')
  handles.push(handle)
  return handle
}

function span(n: number): OnlineSpanRow {
  return {
    traceId: n.toString(16).padStart(32, '0'), spanId: (n + 1).toString(16).padStart(16, '0'), parentSpanId: n % 2 ? null : 'c'.repeat(16),
    name: 'chat gpt-4o', serviceName: n % 3 ? 'shop' : null, operation: 'chat', model: 'gpt-4o', inputText: `question é "${n}"`, outputText: n % 4 ? `answer ${n}` : null,
    systemInstructions: null, usage: n % 2 ? { input_tokens: 10, output_tokens: null } : null, statusCode: 0, startedAt: 1_000 + n, endedAt: 2_000 + n,
    attributes: { 'gen_ai.operation.name': 'chat', 'n': n, 'list': [1, 'two', true] }, receivedAt: 3_000,
  }
}

const decision = (ruleId: string, s: OnlineSpanRow, n: number): OnlineDecisionRow => ({
  ruleId, traceId: s.traceId, spanId: s.spanId, status: n % 10 ? 'sampled_out' : 'queued', reason: n % 10 ? 'not in the 10% sample' : null,
  score: null, verdict: null, runId: null, costUsd: null, decidedAt: 5_000 + n, claimedAt: null, updatedAt: 5_000 + n,
})

const rule = { name: 'r', enabled: true, evaluator: { config: {} }, filter: {}, sampleRate: 0.1, maxPerMinute: null, maxCostUsdPerDay: null }

describe('online ingest on SQLite', () => {
  it('stores a request\'s rows exactly as drizzle\'s insert stores them, and prepares no statement for the requests after the first', async () => {
    const handle = open()
    const store = createSqliteStore(handle)
    const { id } = await store.online.createRule(rule)
    const spans = Array.from({ length: 600 }, (_, n) => span(n))
    expect(await store.online.ingest(spans.slice(0, 300), spans.slice(0, 300).map((s, n) => decision(id, s, n)))).toEqual({ spans: 300, decisions: 300 })
    const prepare = vi.spyOn(handle.db.$client, 'prepare')
    expect(await store.online.ingest(spans, spans.map((s, n) => decision(id, s, n)))).toEqual({ spans: 300, decisions: 300 })
    expect(prepare).not.toHaveBeenCalled()
    prepare.mockRestore()

    // The same rows through drizzle's own insert, in another database: SQLite holds the same values.
    const reference = open().db
    reference.insert(onlineRules).values({ id, ...rule, createdAt: 0, updatedAt: 0 }).run()
    reference.insert(onlineSpans).values(spans).run()
    reference.insert(onlineDecisions).values(spans.map((s, n) => decision(id, s, n))).run()
    for (const table of ['online_spans', 'online_decisions']) {
      const rows = (db: DbHandle['db']) => db.$client.prepare(`SELECT * FROM ${table} ORDER BY trace_id, span_id`).all()
      expect(rows(handle.db)).toEqual(rows(reference))
    }
  })
})
