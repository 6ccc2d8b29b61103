import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { cli } from '../../support/cli'
import type { DatasetReport } from '../../../engine/datasets'

const examples = join(import.meta.dirname, '../../../examples')
const gate = join(examples, 'quality-gate.json')
const dataset = join(examples, 'datasets/support-questions.csv')
const reportOf = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as DatasetReport
const caseIds = (file: string) => reportOf(file).results.map(r => r.case_id)

describe('judgeflow test --filter-*: the cases a run takes', () => {
  it('--filter-pattern keeps the cases whose id matches, and refuses a pattern RE2 cannot compile', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'judgeflow-flags-'))
    const run = await cli(['test', gate, '--dataset', dataset, '--filter-pattern', '^(billing|team)-', '--report', join(dir, 'r.json')])
    expect(run.out).toContain('support-questions: 0 passed, 5 failed, 0 errored of 5 cases')
    expect(caseIds(join(dir, 'r.json'))).toEqual(['billing-1', 'billing-2', 'billing-3', 'team-1', 'team-2'])
    // The report of a filtered run has its own cases only: the judge's agreement is on them.
    expect(reportOf(join(dir, 'r.json')).agreement).toMatchObject({ labelled: 5 })
    expect(await cli(['test', gate, '--dataset', dataset, '--filter-pattern', '(a)\\1'])).toMatchObject({ code: 2, out: '', err: expect.stringMatching(/^--filter-pattern: the pattern \/\(a\)\\1\/ is not a valid regular expression/) })
    expect(await cli(['test', gate, '--dataset', dataset, '--filter-pattern', '^nothing'])).toMatchObject({ code: 2, err: 'No case is left once the --filter-* flags are applied: loosen them to run at least one case.' })
  })

  it('--filter-first-n takes the first N; --filter-sample N draws N, the same N again with the seed the summary names', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'judgeflow-flags-'))
    await cli(['test', gate, '--dataset', dataset, '--filter-first-n', '3', '--report', join(dir, 'first.json')])
    expect(caseIds(join(dir, 'first.json'))).toEqual(['reset-1', 'reset-2', 'reset-3'])
    const drawn = await cli(['test', gate, '--dataset', dataset, '--filter-sample', '4', '--report', join(dir, 'a.json')])
    const seed = /drew 4 of 12 cases with --seed (\d+)/.exec(drawn.out)?.[1]
    expect(seed).toBeDefined()
    expect(caseIds(join(dir, 'a.json'))).toHaveLength(4)
    await cli(['test', gate, '--dataset', dataset, '--filter-sample', '4', '--seed', seed!, '--report', join(dir, 'b.json')])
    expect(caseIds(join(dir, 'b.json'))).toEqual(caseIds(join(dir, 'a.json')))
    expect(await cli(['test', gate, '--dataset', dataset, '--seed', '3'])).toMatchObject({ code: 2, err: '--seed makes --filter-sample\'s draw repeatable: give it with --filter-sample N.' })
    expect(await cli(['test', gate, '--dataset', dataset, '--filter-first-n', '0'])).toMatchObject({ code: 2, err: '--filter-first-n must be a whole number from 1 to 1000000, not "0".' })
    expect(await cli(['test', gate, '--dataset', dataset, '--filter-sample', 'x'])).toMatchObject({ code: 2, err: '--filter-sample must be a whole number from 1 to 1000000, not "x".' })
  })

  it('--filter-failing runs again only the cases that failed or errored in an earlier report, and refuses a file that is not one', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'judgeflow-flags-'))
    await cli(['test', gate, '--dataset', dataset, '--report', join(dir, 'all.json')])
    const failed = reportOf(join(dir, 'all.json')).results.filter(r => r.verdict !== 'pass').map(r => r.case_id)
    expect(failed).toHaveLength(7)
    const again = await cli(['test', gate, '--dataset', dataset, '--filter-failing', join(dir, 'all.json'), '--report', join(dir, 'again.json')])
    expect(again.out).toContain('0 passed, 7 failed, 0 errored of 7 cases')
    expect(caseIds(join(dir, 'again.json'))).toEqual(failed)
    writeFileSync(join(dir, 'junk.json'), '{"results": 3}')
    expect(await cli(['test', gate, '--dataset', dataset, '--filter-failing', join(dir, 'junk.json')])).toMatchObject({
      code: 2, err: expect.stringContaining(`--filter-failing: the report "${join(dir, 'junk.json')}" is not a report written by judgeflow test --report`),
    })
    // It is read: no output may be written over it.
    expect((await cli(['test', gate, '--dataset', dataset, '--filter-failing', join(dir, 'all.json'), '--report', join(dir, 'all.json')])).err).toContain('is the report of --filter-failing')
  })
})

describe('judgeflow test: how the cases run', () => {
  it('--max-concurrency is --concurrency by another name; both, differing, are refused; --delay is checked', async () => {
    expect((await cli(['test', gate, '--dataset', dataset, '--max-concurrency', '2', '--min-pass-rate', '0'])).code).toBe(0)
    expect(await cli(['test', gate, '--dataset', dataset, '--max-concurrency', '2', '--concurrency', '3'])).toMatchObject({ code: 2, err: '--max-concurrency is another name for --concurrency: give one of them, not 3 and 2.' })
    expect(await cli(['test', gate, '--dataset', dataset, '--max-concurrency', '65'])).toMatchObject({ code: 2, err: '--max-concurrency must be a whole number from 1 to 64, not "65".' })
    expect(await cli(['test', gate, '--dataset', dataset, '--delay', 'soon'])).toMatchObject({ code: 2, err: '--delay must be a whole number from 0 to 600000, not "soon".' })
    expect(await cli(['test', gate, '--dataset', dataset, '--var', 'no-equals'])).toMatchObject({ code: 2, err: '--var takes name=value (an input field and its text), not "no-equals".' })
    expect(await cli(['test', gate, '--dataset', dataset, '--env-file', '/nonexistent/.env'])).toMatchObject({ code: 2, err: 'Cannot read the env file "/nonexistent/.env": it does not exist.' })
  })

  it('--var sets an input field of every case, over the case\'s own', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'judgeflow-flags-'))
    writeFileSync(join(dir, 'judge.json'), JSON.stringify({ evaluation_type: 'scoring', model: 'local:heuristic', pass_threshold: 0.5 }))
    writeFileSync(join(dir, 'answers.jsonl'), `${JSON.stringify({ id: 'a', input: { content: 'Open Settings, choose Forgot password and follow the email link.', context: 'How do I reset my password?' } })}\n`)
    const args = ['test', '--config', join(dir, 'judge.json'), '--dataset', join(dir, 'answers.jsonl')]
    expect((await cli(args)).out).toContain('1 passed, 0 failed')
    const overridden = await cli([...args, '--var', 'content=No.'])
    expect(overridden.out).toContain('0 passed, 1 failed')
  })
})
