import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { beforeEach, describe, expect, it } from 'vitest'
import { itemsFrom } from '../../../core/review/items'
import { createSqliteStore, openDatabase } from '../../../db'
import { itemSourceSchema } from '../../../engine/review/schema'
import { cli } from '../../support/cli'
import { lastUserText } from '../../support/fake-llm'
import { useFakeJudge } from '../../support/fake-judge'

// The judge (through the real OpenAI SDK) scores an answer that says "good" 0.9, any other 0.2.
const { fake } = useFakeJudge()
beforeEach(() => {
  fake.onRequest(request => ({ json: { criteria_scores: { helpful: /good/.test(lastUserText(request)) ? 0.9 : 0.2 }, criteria_reasons: { helpful: 'r' }, feedback: 'f', suggestions: [] } }))
})

/** A rubric judge; `strictA` moves its A band. */
const judge = (strictA = false) => ({
  evaluation_type: 'rubric', model: 'openai:gpt-4o-mini', pass_threshold: 0.5, criteria: [{ name: 'helpful', description: 'Helps the reader' }],
  rubric: { grades: [{ grade: 'A', min_score: strictA ? 0.95 : 0.85 }, { grade: 'C', min_score: 0.5 }, { grade: 'F', min_score: 0 }] },
})
const lines = (cases: Array<Record<string, unknown>>) => `${cases.map(c => JSON.stringify(c)).join('\n')}\n`

function files() {
  const dir = mkdtempSync(join(tmpdir(), 'judgeflow-calibration-'))
  const write = (name: string, text: string) => writeFileSync(join(dir, name), text)
  write('judge.json', JSON.stringify(judge()))
  write('edited.json', JSON.stringify(judge(true)))
  // Labelled by people: the judge agrees on every case (κ 1).
  write('support-cases.jsonl', lines([
    { id: 'l1', input: { content: 'a good answer' }, expected: { verdict: 'pass' } },
    { id: 'l2', input: { content: 'a good reply' }, expected: { verdict: 'pass' } },
    { id: 'l3', input: { content: 'no idea' }, expected: { verdict: 'fail' } },
    { id: 'l4', input: { content: 'go away' }, expected: { verdict: 'fail' } },
  ]))
  write('regressions.jsonl', lines([{ id: 'r1', input: { content: 'a good one' } }, { id: 'r2', input: { content: 'also good' } }]))
  return { dir, db: join(dir, 'kept.db'), file: (name: string) => join(dir, name) }
}

describe('judgeflow test --require-calibration', () => {
  it('gates only with a judge calibrated on the dataset\'s current version, κ high enough; else exit 2 saying which', async () => {
    const { db, file } = files()
    const gate = (config: string, minKappa = '0.6') => cli(['test', '--config', file(config), '--dataset', file('regressions.jsonl'), '--db', db, '--require-calibration', 'support-cases', '--min-kappa', minKappa], fake.env())

    const none = await gate('judge.json')
    expect(none.code).toBe(2)
    expect(none.err).toContain('require_calibration: the judge is not calibrated: there is no dataset or review queue "support-cases"')
    expect(fake.requests).toHaveLength(0)

    // Calibrated: a run of the labelled dataset, kept in the same database.
    // (Its failing cases are the ones people labelled fail: --min-pass-rate 0, the κ is what counts.)
    expect((await cli(['test', '--config', file('judge.json'), '--dataset', file('support-cases.jsonl'), '--db', db, '--min-pass-rate', '0'], fake.env())).code).toBe(0)
    const calibrated = await gate('judge.json')
    expect(calibrated.code).toBe(0)
    expect(calibrated.out).toContain('regressions: 2 passed, 0 failed, 0 errored of 2 cases')
    // --min-kappa is the calibration's: this run has no labels, and no min_kappa gate of its own.
    expect(calibrated.out).not.toContain('min_kappa')

    const requests = fake.requests.length
    const edited = await gate('edited.json')
    expect(edited.code).toBe(2)
    // The rubric edited: the A band moved.
    expect(edited.err).toContain('require_calibration: the judge is stale: the rubric changed since the last calibration on support-cases v1')
    expect(fake.requests).toHaveLength(requests)

    // A new version of the labels: the calibration on v1 no longer says how the judge does on them.
    writeFileSync(file('support-cases.jsonl'), lines([{ id: 'l1', input: { content: 'a good answer' }, expected: { verdict: 'pass' } }, { id: 'l5', input: { content: 'good enough' }, expected: { verdict: 'fail' } }]))
    expect((await cli(['test', '--config', file('edited.json'), '--dataset', file('support-cases.jsonl'), '--db', db, '--min-pass-rate', '0'], fake.env())).code).toBe(0)
    const moved = await gate('judge.json')
    expect(moved.code).toBe(2)
    expect(moved.err).toContain('require_calibration: the judge is stale: support-cases changed since (v1 → v2)')
  })

  it('refuses a judge whose κ is below the one required, and --require-calibration without --min-kappa', async () => {
    const { db, file } = files()
    // People disagree with the judge on half the cases: κ 0.
    writeFileSync(file('support-cases.jsonl'), lines([
      { id: 'l1', input: { content: 'a good answer' }, expected: { verdict: 'pass' } },
      { id: 'l2', input: { content: 'a good reply' }, expected: { verdict: 'fail' } },
      { id: 'l3', input: { content: 'no idea' }, expected: { verdict: 'pass' } },
      { id: 'l4', input: { content: 'go away' }, expected: { verdict: 'fail' } },
    ]))
    await cli(['test', '--config', file('judge.json'), '--dataset', file('support-cases.jsonl'), '--db', db, '--min-pass-rate', '0'], fake.env())
    const low = await cli(['test', '--config', file('judge.json'), '--dataset', file('regressions.jsonl'), '--db', db, '--require-calibration', 'support-cases', '--min-kappa', '0.4'], fake.env())
    expect(low.code).toBe(2)
    expect(low.err).toMatch(/require_calibration: the judge's κ 0\.00 \[-?\d\.\d\d, \d\.\d\d\] on support-cases v1 is below the 0\.4 required/)
    const bare = await cli(['test', '--config', file('judge.json'), '--dataset', file('regressions.jsonl'), '--require-calibration', 'support-cases'], fake.env())
    expect(bare.code).toBe(2)
    expect(bare.err).toContain('--require-calibration <dataset> needs --min-kappa K')
  })

  it('--min-kappa-lower: the calibration\'s κ interval must reach a lower bound, a failed gate (exit 1) saying required and measured, in JUnit too', async () => {
    const { db, file } = files()
    // 30 labelled cases, the judge agreeing on 24 (80 %): κ 0.6, on an interval too wide to tell.
    const labelled = Array.from({ length: 30 }, (_, i) => {
      const good = i < 15
      const agrees = i % 15 >= 3
      return { id: `l${i}`, input: { content: good ? `a good answer ${i}` : `no idea ${i}` }, expected: { verdict: good === agrees ? 'pass' : 'fail' } }
    })
    writeFileSync(file('support-cases.jsonl'), lines(labelled))
    const calibrating = await cli(['test', '--config', file('judge.json'), '--dataset', file('support-cases.jsonl'), '--db', db, '--min-pass-rate', '0'], fake.env())
    expect(calibrating.code).toBe(0)
    // The run's own κ against its labels is said with why it cannot tell, not as plainly as a tight one.
    expect(calibrating.out).toMatch(/judge agreement: κ 0\.6 on 30 labelled cases, accuracy 80\.0 %; κ's 95 % interval \[\d\.\d\d, \d\.\d\d\] — TOO WIDE TO TELL: the interval is \d\.\d\d wide, more than 0\.4, on 30 labelled cases/)

    const gate = (lower: string, junit?: string) => cli(['test', '--config', file('judge.json'), '--dataset', file('regressions.jsonl'), '--db', db,
      '--require-calibration', 'support-cases', '--min-kappa', '0.5', '--min-kappa-lower', lower, '--report', file(`report-${lower}.json`), ...(junit ? ['--junit', junit] : [])], fake.env())
    const strict = await gate('0.5', file('j.xml'))
    expect(strict.code).toBe(1)
    const report = JSON.parse(readFileSync(file('report-0.5.json'), 'utf8'))
    const lower = report.calibration.kappa_ci[0]
    expect(lower).toBeLessThan(0.5)
    expect(report.calibration).toMatchObject({ dataset: { name: 'support-cases', version: 1 }, kappa: 0.6, labelled: 30, min_kappa: 0.5, min_kappa_lower: 0.5 })
    expect(report.gates).toContainEqual({ gate: 'min_kappa_lower', required: 0.5, actual: lower, passed: false })
    expect(strict.out).toContain(`FAIL min_kappa_lower: required 0.5, actual ${lower}`)
    expect(strict.out).toMatch(/calibration against people: κ 0\.60 \[\d\.\d\d, \d\.\d\d\] on support-cases v1 \(30 labelled\) — TOO WIDE TO TELL/)
    const xml = readFileSync(file('j.xml'), 'utf8')
    expect(xml).toContain('<testsuite name="gates" tests="3" failures="1"')
    expect(xml).toContain(`<failure message="min_kappa_lower failed: required 0.5, actual ${lower}" type="gate">`)

    const loose = await gate('0.1')
    expect(loose.code).toBe(0)
    expect(loose.out).toContain(`ok   min_kappa_lower: required 0.1, actual ${lower}`)
  })

  it('--min-kappa-lower finds no bound to trust under 30 labelled cases, and is refused without --require-calibration', async () => {
    const { db, file } = files()
    // Four cases, every one agreed on: the bootstrap's interval is [1.00, 1.00], which means nothing.
    expect((await cli(['test', '--config', file('judge.json'), '--dataset', file('support-cases.jsonl'), '--db', db, '--min-pass-rate', '0'], fake.env())).code).toBe(0)
    const few = await cli(['test', '--config', file('judge.json'), '--dataset', file('regressions.jsonl'), '--db', db,
      '--require-calibration', 'support-cases', '--min-kappa', '0.5', '--min-kappa-lower', '0.5'], fake.env())
    expect(few.code).toBe(1)
    expect(few.out).toContain('calibration against people: κ 1.00 [1.00, 1.00] on support-cases v1 (4 labelled) — TOO FEW CASES TO TELL: 4 labelled, 30 needed; the interval is 0.00 wide')
    expect(few.out).toContain('FAIL min_kappa_lower: required 0.5, actual —')

    const alone = await cli(['test', '--config', file('judge.json'), '--dataset', file('regressions.jsonl'), '--min-kappa-lower', '0.5'], fake.env())
    expect(alone.code).toBe(2)
    expect(alone.err).toContain('--min-kappa-lower K bounds the calibration\'s κ interval: give it with --require-calibration <dataset> --min-kappa K.')
  })

  it('gates on a review queue\'s calibration: people\'s consensus on a run\'s judged cases, under the judge that judged them', async () => {
    const { db, file } = files()
    // The support cases without their labels: the judge's verdicts, kept in the database, are what people review.
    writeFileSync(file('answers.jsonl'), lines([1, 2, 3, 4].map(n => ({ id: `a${n}`, input: { content: n <= 2 ? `a good answer ${n}` : `no idea ${n}` } }))))
    expect((await cli(['test', '--config', file('judge.json'), '--dataset', file('answers.jsonl'), '--db', db, '--min-pass-rate', '0'], fake.env())).code).toBe(0)
    const store = createSqliteStore(openDatabase(db))
    const [run] = await store.datasets.runs((await store.datasets.findByName('answers'))!.id)
    const queue = await store.review.createQueue({ name: 'answers-review', rubric: { labels: ['pass', 'fail'], score: false, comment: true }, instructions: null, reviewersPerItem: 2, leaseMinutes: 30, showJudge: false })
    await store.review.addItems(queue.id, await itemsFrom(store, itemSourceSchema.parse({ from: 'dataset_run', dataset_run_id: run!.id })))
    // Two people agree with the judge: pass on the good answers, fail on the others.
    for (const item of await store.review.items(queue.id)) {
      const label = /good/.test(JSON.stringify(item.input)) ? 'pass' : 'fail'
      for (const reviewer of ['ana', 'bo']) await store.review.label({ itemId: item.id, reviewer, label, score: null, comment: null })
    }
    await store.close()

    const gate = (config: string) => cli(['test', '--config', file(config), '--dataset', file('regressions.jsonl'), '--db', db, '--require-calibration', 'answers-review', '--min-kappa', '0.6', '--report', file('report.json')], fake.env())
    const calibrated = await gate('judge.json')
    expect(calibrated.code).toBe(0)
    expect(calibrated.out).toContain('calibration against people: κ 1.00 [1.00, 1.00] on review queue answers-review (4 labelled)')
    expect(JSON.parse(readFileSync(file('report.json'), 'utf8')).calibration).toMatchObject({ queue: { id: queue.id, name: 'answers-review', items_hash: expect.any(String) }, kappa: 1, labelled: 4, min_kappa: 0.6 })

    const edited = await gate('edited.json')
    expect(edited.code).toBe(2)
    expect(edited.err).toContain('require_calibration: the judge is stale: the rubric changed since the items of review queue answers-review were judged')
  })
})
