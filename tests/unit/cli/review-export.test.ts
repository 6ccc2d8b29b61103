import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { createSqliteStore, openDatabase } from '../../../db'
import { cli } from '../../support/cli'

/** A queue of three online answers in a database file: two people agree on two of them (one with scores), and split on the third. */
async function labelledDatabase() {
  const db = join(mkdtempSync(join(tmpdir(), 'judgeflow-review-export-')), 'kept.db')
  const store = createSqliteStore(openDatabase(db))
  const queue = await store.review.createQueue({ name: 'tone', rubric: { labels: ['pass', 'fail'], score: true, comment: true }, instructions: null, reviewersPerItem: 2, leaseMinutes: 30, showJudge: false })
  await store.review.addItems(queue.id, [1, 2, 3].map(n => ({
    source: { kind: 'online' as const, rule_id: 'r1', trace_id: `t${n}`, span_id: `s${n}` }, input: n === 1 ? '=HYPERLINK("x")' : `question ${n}`, output: `answer ${n}`, context: null,
    judge: { verdict: n === 2 ? 'fail' : 'pass', score: null, confidence: null, reason: null, fingerprint: 'fp' },
  })))
  const items = await store.review.items(queue.id)
  const labels: Array<[number, string, string, number | null]> = [[0, 'ana', 'pass', 0.9], [0, 'bo', 'pass', 0.7], [1, 'ana', 'pass', null], [1, 'bo', 'pass', null], [2, 'ana', 'pass', null], [2, 'bo', 'fail', null]]
  for (const [n, reviewer, label, score] of labels) await store.review.label({ itemId: items[n]!.id, reviewer, label, score, comment: null })
  await store.close()
  return { db, queue, items }
}

describe('judgeflow review export', () => {
  it('prints the items people agree on with the consensus and the expected verdict and score, as JSONL or CSV', async () => {
    const { db, queue, items } = await labelledDatabase()
    const jsonl = await cli(['review', 'export', queue.id, '--db', db])
    expect(jsonl.code).toBe(0)
    expect(jsonl.out.split('\n').map(line => JSON.parse(line))).toEqual([
      {
        item_id: items[0]!.id, case_id: 'tone-1', source: { kind: 'online', rule_id: 'r1', trace_id: 't1', span_id: 's1' }, input: '=HYPERLINK("x")', output: 'answer 1',
        judge_verdict: 'pass', consensus: 'pass', votes: 2, reviewers: 2, expected_verdict: 'pass', expected_score: 0.8,
      },
      {
        item_id: items[1]!.id, case_id: 'tone-2', source: { kind: 'online', rule_id: 'r1', trace_id: 't2', span_id: 's2' }, input: 'question 2', output: 'answer 2',
        judge_verdict: 'fail', consensus: 'pass', votes: 2, reviewers: 2, expected_verdict: 'pass', expected_score: null,
      },
    ])
    // By name too; no cell opens a formula.
    const csv = await cli(['review', 'export', 'tone', '--db', db, '--format', 'csv'])
    expect(csv.code).toBe(0)
    expect(csv.out.split('\n')).toEqual([
      'item_id,case_id,input,output,judge_verdict,consensus,votes,reviewers,expected_verdict,expected_score',
      `${items[0]!.id},tone-1,"'=HYPERLINK(""x"")",answer 1,pass,pass,2,2,pass,0.8`,
      `${items[1]!.id},tone-2,question 2,answer 2,fail,pass,2,2,pass,`,
    ])
  })

  it('names a queue that is not there, a format it does not write, and a missing queue argument; exit 2', async () => {
    const { db } = await labelledDatabase()
    expect(await cli(['review', 'export', 'nope', '--db', db])).toMatchObject({ code: 2, err: `there is no review queue "nope" in ${db}` })
    expect(await cli(['review', 'export', 'tone', '--db', db, '--format', 'xml'])).toMatchObject({ code: 2, err: '--format must be jsonl or csv, not "xml"' })
    expect((await cli(['review', 'export'])).err).toContain('review needs the queue to export: judgeflow review export <queue>')
  })
})
