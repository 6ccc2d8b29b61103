import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { beforeEach, describe, expect, it } from 'vitest'
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
    expect(none.err).toContain('require_calibration: the judge is not calibrated: there is no dataset "support-cases"')
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
})
