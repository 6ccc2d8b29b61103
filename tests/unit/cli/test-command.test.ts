import { copyFileSync, linkSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { basename, join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { cli } from '../../support/cli'
import type { DatasetReport } from '../../../engine/datasets'

const examples = join(import.meta.dirname, '../../../examples')
const gate = join(examples, 'quality-gate.json')
const dataset = join(examples, 'datasets/support-questions.csv')

describe('judgeflow test', () => {
  it('runs the offline quality gate over the labelled example dataset: the report, JUnit, and the judge\'s agreement', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'judgeflow-test-'))
    const { code, out, err } = await cli(['test', gate, '--dataset', dataset, '--report', join(dir, 'r.json'), '--junit', join(dir, 'r.xml'), '--concurrency', '4'])
    // Failing by default: with no --min-pass-rate every case must pass, and 7 failed.
    expect(code).toBe(1)
    expect(out).toContain('support-questions: 5 passed, 7 failed, 0 errored of 12 cases')
    expect(out).toContain('FAIL min_pass_rate: required 1 (the default: every case must pass; --min-pass-rate R allows failures), actual 0.4167')
    // Not a terminal: plain progress lines on stderr, ending with every case done.
    expect(err.split('\n').at(-1)).toBe('12/12 case runs · cases: 5 passed · 7 failed · 0 errored')
    const report = JSON.parse(readFileSync(join(dir, 'r.json'), 'utf8')) as DatasetReport
    expect(report).toMatchObject({ dataset: { name: 'support-questions', version: 1 }, cases: 12, passed: 5, failed: 7, errored: 0 })
    // One disagreement: "login-1" (no access to the email) was labelled fail, and the judge passed it.
    expect(report.agreement).toMatchObject({ labelled: 12, confusion: { pass_pass: 4, pass_fail: 0, fail_pass: 1, fail_fail: 7 } })
    expect(report.by_tag.billing).toEqual({ cases: 3, passed: 0, pass_rate: 0 })
    const junit = readFileSync(join(dir, 'r.xml'), 'utf8')
    expect(junit.match(/<testcase classname="support-questions" /g)).toHaveLength(12)
    // The seven failed cases, and the failed default gate in the gates' testsuite: the file fails as the job does.
    expect(junit.match(/<failure [^>]*type="fail"/g)).toHaveLength(7)
    expect(junit).toContain('<testcase classname="gates" name="min_pass_rate" time="0.000">\n      <failure message="min_pass_rate failed: required 1, actual 0.4167" type="gate">')
  })

  it('exits 1 when a gate fails and says which; against a baseline, --no-regressions holds when nothing regressed', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'judgeflow-test-'))
    const failed = await cli(['test', gate, '--dataset', dataset, '--min-pass-rate', '0.9', '--min-kappa', '0.5', '--report', join(dir, 'base.json')])
    expect(failed.code).toBe(1)
    expect(failed.out).toContain('FAIL min_pass_rate: required 0.9, actual 0.4167')
    expect(failed.out).toContain('ok   min_kappa: required 0.5')
    const again = await cli(['test', gate, '--dataset', dataset, '--baseline', join(dir, 'base.json'), '--no-regressions', '--min-pass-rate', '0.4', '--markdown'])
    expect(again.code).toBe(0)
    expect(again.out).toMatch(/^# Dataset support-questions/)
  })

  it('--no-regressions reads a changed case against its label: pass → fail on a case labelled fail holds, fail → pass on it fails', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'judgeflow-test-'))
    await cli(['test', gate, '--dataset', dataset, '--report', join(dir, 'now.json')])
    const now = JSON.parse(readFileSync(join(dir, 'now.json'), 'utf8')) as DatasetReport
    const labels = new Map(readFileSync(dataset, 'utf8').trim().split('\n').slice(1).map(line => [line.split(',')[0]!, line.split(',').at(-1)!]))
    const judged = (expected: string, verdict: string) => now.results.find(r => labels.get(r.case_id) === expected && r.verdict === verdict)!.case_id
    const baselineWith = (id: string, verdict: 'pass' | 'fail') => {
      const file = join(dir, `base-${id}.json`)
      writeFileSync(file, JSON.stringify({ ...now, results: now.results.map(r => (r.case_id === id ? { ...r, verdict } : r)) }))
      return file
    }
    // Labelled fail, judged fail now, passed in the baseline: now agrees with its label, a fix.
    const fixed = judged('fail', 'fail')
    const held = await cli(['test', gate, '--dataset', dataset, '--baseline', baselineWith(fixed, 'pass'), '--no-regressions', '--min-pass-rate', '0.4'])
    expect(held.out).toContain('0 regressions, 1 fixes; read against the labels')
    expect(held.code).toBe(0)
    // Labelled fail, judged pass now, failed in the baseline: now disagrees with its label, a regression.
    const broken = judged('fail', 'pass')
    const failed = await cli(['test', gate, '--dataset', dataset, '--baseline', baselineWith(broken, 'fail'), '--no-regressions', '--min-pass-rate', '0.4'])
    expect(failed.out).toContain(`regressed ${broken}: failed → passed, now disagrees with the label (fail)`)
    expect(failed.out).toContain('FAIL no_regressions: required 0, actual 1')
    expect(failed.code).toBe(1)
  })

  it('exits 2 for invalid input, and when more cases error than --max-errors allows', async () => {
    expect((await cli(['test', gate])).err).toContain('test needs a dataset and either a workflow file or --config')
    expect(await cli(['test', gate, '--dataset', dataset, '--concurrency', '0'])).toMatchObject({ code: 2, err: '--concurrency must be a whole number from 1 to 64, not "0".' })
    expect(await cli(['test', gate, '--dataset', dataset, '--no-regressions'])).toMatchObject({ code: 2, err: expect.stringContaining('--no-regressions needs --baseline') })
    const dir = mkdtempSync(join(tmpdir(), 'judgeflow-test-'))
    writeFileSync(join(dir, 'bad.csv'), 'id,question,expected_verdict\nq1,hi,maybe\n')
    expect(await cli(['test', gate, '--dataset', join(dir, 'bad.csv')])).toMatchObject({ code: 2, err: expect.stringContaining('line 2, expected_verdict: "maybe" is not a verdict') })
    // An LLM step with no pinned output and no key: refused once, in one sentence, before any case runs.
    const unpinned = JSON.parse(readFileSync(gate, 'utf8')) as { nodes: Array<{ pinned?: unknown }> }
    for (const node of unpinned.nodes) delete node.pinned
    writeFileSync(join(dir, 'unpinned.json'), JSON.stringify(unpinned))
    const keyless = await cli(['test', join(dir, 'unpinned.json'), '--dataset', dataset, '--max-errors', '2'])
    expect(keyless).toMatchObject({ code: 2, out: '', err: expect.stringMatching(/^OPENAI_API_KEY is not set: node "\w+" uses openai:[\w.-]+\. Set it in the environment, or pin this step's output to run offline\.$/) })
    // With the key, a provider nobody answers at: each case's run errors.
    const unreachable = { OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: 'http://127.0.0.1:9/v1', JUDGEFLOW_LLM_MAX_RETRIES: '0' }
    const errored = await cli(['test', join(dir, 'unpinned.json'), '--dataset', dataset, '--max-errors', '2'], unreachable)
    expect(errored.code).toBe(2)
    expect(errored.out).toContain('0 passed, 0 failed, 12 errored of 12 cases')
  })

  it('judges with an evaluator config alone', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'judgeflow-test-'))
    writeFileSync(join(dir, 'judge.json'), JSON.stringify({ evaluation_type: 'scoring', model: 'local:heuristic', pass_threshold: 0.5 }))
    writeFileSync(join(dir, 'answers.jsonl'), `${JSON.stringify({ id: 'a', input: { content: 'Open Settings, choose Forgot password and follow the email link.', context: 'How do I reset my password?' } })}\n`)
    const { code, out } = await cli(['test', '--config', join(dir, 'judge.json'), '--dataset', join(dir, 'answers.jsonl')])
    expect(code).toBe(0)
    expect(out).toContain('answers: 1 passed, 0 failed, 0 errored of 1 cases')
  })
})

describe('judgeflow test: the files it writes are checked before any case runs', () => {
  it('refuses to write the report over the dataset, however the path is spelt, and leaves the dataset as it was', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'judgeflow-test-'))
    const input = join(dir, 'cases.csv')
    copyFileSync(dataset, input)
    const before = readFileSync(input, 'utf8')
    const spelt = join(dir, '..', basename(dir), 'cases.csv')
    expect(await cli(['test', gate, '--dataset', input, '--report', spelt])).toEqual({ code: 2, out: '', err: `--report "${spelt}" is the dataset file "${input}", which this command reads: name another file to write.` })
    linkSync(input, join(dir, 'hard-link.csv'))
    expect((await cli(['test', gate, '--dataset', input, '--junit', join(dir, 'hard-link.csv')])).err).toContain(`--junit "${join(dir, 'hard-link.csv')}" is the dataset file`)
    expect((await cli(['test', gate, '--dataset', input, '--report', gate])).err).toContain(`--report "${gate}" is the workflow file`)
    expect(readFileSync(input, 'utf8')).toBe(before)
  })

  it('refuses a --junit that is a symbolic link, and leaves the file it points to as it was', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'judgeflow-test-'))
    writeFileSync(join(dir, 'precious.txt'), 'keep me')
    symlinkSync(join(dir, 'precious.txt'), join(dir, 'out.xml'))
    expect(await cli(['test', gate, '--dataset', dataset, '--junit', join(dir, 'out.xml')])).toEqual({
      code: 2, out: '', err: `--junit "${join(dir, 'out.xml')}" is a symbolic link: name the file itself, not a link to it.`,
    })
    expect(readFileSync(join(dir, 'precious.txt'), 'utf8')).toBe('keep me')
  })

  it('fails at once, before any case runs, when a report cannot be written there', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'judgeflow-test-'))
    writeFileSync(join(dir, 'a-file'), '')
    // No progress line on stderr: the sentence is all, so no case ran.
    expect(await cli(['test', gate, '--dataset', dataset, '--report', join(dir, 'missing', 'r.json')])).toEqual({
      code: 2, out: '', err: `--report "${join(dir, 'missing', 'r.json')}" cannot be written: the folder "${join(dir, 'missing')}" does not exist.`,
    })
    expect((await cli(['test', gate, '--dataset', dataset, '--report', join(dir, 'a-file', 'r.json')])).err).toBe(`--report "${join(dir, 'a-file', 'r.json')}" cannot be written: "${join(dir, 'a-file')}" is a file, not a folder.`)
    expect((await cli(['test', gate, '--dataset', dataset, '--report', dir])).err).toBe(`--report "${dir}" is a folder: name a file to write.`)
    expect((await cli(['test', gate, '--dataset', dataset, '--report', join(dir, 'r'), '--junit', join(dir, 'r')])).err).toBe(`--junit "${join(dir, 'r')}" is also where --report goes: name a different file for each.`)
  })
})

describe('judgeflow test --baseline: only a report of this dataset is a baseline', () => {
  it('refuses a file that is not a dataset run report, naming what is wrong, before any case runs', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'judgeflow-test-'))
    const garbage = join(dir, 'garbage.json')
    writeFileSync(garbage, JSON.stringify({ dataset: {}, results: [{ case_id: 'q1', verdict: 'maybe' }, 42] }))
    expect(await cli(['test', gate, '--dataset', dataset, '--baseline', garbage, '--no-regressions'])).toEqual({
      code: 2, out: '', err: `The baseline report "${garbage}" is not a report written by judgeflow test --report: dataset.id: is required; dataset.name: is required; dataset.version: is required; results[0].repeat: is required; results[0].status: is required (and 2 more).`,
    })
    writeFileSync(garbage, JSON.stringify({ dataset: { id: 'd', name: 'support-questions', version: 1 }, results: 'none' }))
    expect((await cli(['test', gate, '--dataset', dataset, '--baseline', garbage, '--no-regressions'])).err).toBe(`The baseline report "${garbage}" is not a report written by judgeflow test --report: results: must be a list of case results.`)
  })

  it('refuses a report of another dataset, or one that shares no case with this one', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'judgeflow-test-'))
    const other = join(dir, 'other.json')
    const result = { case_id: 'reset-1', repeat: 1, status: 'succeeded', verdict: 'pass', score: 1, run_id: 'r', latency_ms: 1, error: null }
    writeFileSync(other, JSON.stringify({ dataset: { id: 'd', name: 'billing-questions', version: 3 }, results: [result] }))
    expect(await cli(['test', gate, '--dataset', dataset, '--baseline', other, '--no-regressions'])).toEqual({
      code: 2, out: '', err: `The baseline report "${other}" is of dataset "billing-questions", not "support-questions": give the report of an earlier run of this dataset.`,
    })
    writeFileSync(other, JSON.stringify({ dataset: { id: 'd', name: 'support-questions', version: 1 }, results: [{ ...result, case_id: 'not-a-case' }] }))
    expect((await cli(['test', gate, '--dataset', dataset, '--baseline', other, '--no-regressions'])).err).toBe(`The baseline report "${other}" has no result for any case of dataset "support-questions": give the report of an earlier run of this dataset.`)
  })
})
