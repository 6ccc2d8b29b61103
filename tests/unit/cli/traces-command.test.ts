import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { createSqliteStore, openDatabase } from '../../../db'
import { sampled } from '../../../engine/online/selection'
import { cli } from '../../support/cli'

/** `judgeflow traces import`: a file of OTLP/JSON export requests decided by the online rules of the database the server uses. */
function exportOf(ids: string[]) {
  const text = (key: string, value: string) => ({ key, value: { stringValue: value } })
  return {
    resourceSpans: [{
      resource: { attributes: [text('service.name', 'shop')] },
      scopeSpans: [{ spans: ids.map(traceId => ({ traceId, spanId: '1'.repeat(16), name: 'chat', attributes: [text('input.value', 'q'), text('output.value', 'a')] })) }],
    }],
  }
}

describe('judgeflow traces import', () => {
  it('stores the spans of a JSON-lines file with each enabled rule\'s decision, and names the spans rejected', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'judgeflow-traces-'))
    const db = join(dir, 'judgeflow.db')
    const setup = createSqliteStore(openDatabase(db))
    const rule = await setup.online.createRule({ name: 'half', enabled: true, evaluator: { config: {} }, filter: {}, sampleRate: 0.5, maxPerMinute: null, maxCostUsdPerDay: null })
    await setup.close()
    const ids = Array.from({ length: 12 }, (_, n) => (n + 1).toString(16).padStart(32, 'a'))
    const file = join(dir, 'spans.jsonl')
    writeFileSync(file, `${JSON.stringify(exportOf(ids.slice(0, 6)))}\n${JSON.stringify(exportOf([...ids.slice(6), 'not-an-id']))}\n`)
    const queued = ids.filter(id => sampled(id, '1'.repeat(16), 0.5)).length
    const { code, out } = await cli(['traces', 'import', file, '--db', db])
    expect(code).toBe(0)
    expect(out).toBe(`12 GenAI spans imported; decisions: ${[queued && `${queued} queued`, queued < 12 && `${12 - queued} sampled_out`].filter(Boolean).join(', ')}.`
      + '\n1 span rejected: traceId is not 32 hex digits.\nThe server (judgeflow serve on this database) scores the queued ones.')
    const store = createSqliteStore(openDatabase(db))
    expect(await store.online.decisions({ ruleId: rule.id, limit: 100 })).toHaveLength(12)
    await store.close()
    expect(await cli(['traces', 'import', join(dir, 'missing.json'), '--db', db])).toMatchObject({ code: 2 })
    expect(await cli(['traces', 'list'])).toMatchObject({ code: 2, err: expect.stringContaining('traces needs import and the file to import') })
  })
})
