import { describe, expect, it } from 'vitest'
import { datasetReportToJunit, xmlAttribute, xmlText } from '../../../engine/datasets/junit'
import { LIST_CAP, datasetReportToMarkdown, markdownCode, markdownText } from '../../../engine/datasets/markdown'
import { buildDatasetReport } from '../../../engine/datasets/report'
import type { CaseResult } from '../../../engine/datasets/schema'
import { dataset, results } from './fixture'

const before: CaseResult[] = ['a', 'b', 'd'].map(case_id => ({ case_id, repeat: 1, status: 'succeeded', verdict: case_id === 'a' ? 'fail' : 'pass', score: 0.7 }))
const baseline = buildDatasetReport({ dataset, target: { evaluator: true }, results: before, dataset_run_id: 'dr-1' })
const report = buildDatasetReport({ dataset, target: { workflow_id: 'wf-1' }, results, baseline, gates: { min_pass_rate: 0.5, min_kappa: 0.5, max_errors: 1 } })

describe('Markdown', () => {
  const markdown = datasetReportToMarkdown(report)

  it('matches its snapshot', () => {
    expect(markdown).toMatchSnapshot()
  })
  it('shows the figures, the gates with ✅ / ❌, agreement, baseline and the cases', () => {
    expect(markdown).toContain('| pass rate | 50.0 % (95 % CI 15.0 %–85.0 %) |')
    expect(markdown).toContain('**1 of 3 gates failed: min_kappa.**')
    expect(markdown).toContain('| min_pass_rate | pass rate ≥ 0.5 | 0.5 | ✅ |')
    expect(markdown).toContain('| min_kappa | κ ≥ 0.5 | 0.4 | ❌ |')
    expect(markdown).toContain('| expected pass | 1 | 1 |')
    expect(markdown).toContain('## Against dr-1')
    expect(markdown).toContain('### Regressions (1)\n\n- `d`: passed → failed, now disagrees with the label (pass)')
    expect(markdown).toContain('- `b`: passed → failed, now agrees with the label (fail)')
    expect(markdown).toContain('read against the labels, a regression is a case that now disagrees with its label')
    expect(markdown).toContain('### Failed and errored cases (2 failed, 1 errored)')
    expect(markdown).toContain('| `c` | errored |  |  |  | provider down: 503 \\<Service & "Unavailable"\\> |')
    expect(markdown).toContain('| `d` | failed (score 0.25) |  |  |  | verdict fail (score 0.3) |')
    expect(markdown).toContain('### Flaky cases (verdicts differ across repeats) (1)\n\n- `b`')
  })
  it('caps case lists and the table with "and N more"', () => {
    const many = { ...dataset, cases: Array.from({ length: LIST_CAP + 5 }, (_, i) => ({ id: `q${i}`, input: {} })) }
    const failing: CaseResult[] = many.cases.map(c => ({ case_id: c.id, repeat: 1, status: 'succeeded', verdict: 'fail', score: 0.1 }))
    const text = datasetReportToMarkdown(buildDatasetReport({ dataset: many, target: { evaluator: true }, results: failing }))
    expect(text).toContain(`### Failed and errored cases (${LIST_CAP + 5} failed, 0 errored)`)
    expect(text).toContain(`| \`q${LIST_CAP - 1}\` | failed (score 0.1) |  |  |  | verdict fail (score 0.1) |\n\n… and 5 more`)
    expect(text).not.toContain(`\`q${LIST_CAP}\``)
    expect(text).toContain('Target: an evaluator config.')
  })
  it('escapes text and fences ids holding backticks', () => {
    expect(markdownText('a | b *c*\nd')).toBe('a \\| b \\*c\\* d')
    expect(markdownCode('x`y')).toBe('``x`y``')
    expect(markdownCode('`x')).toBe('`` `x ``')
  })
})

describe('JUnit XML', () => {
  const xml = datasetReportToJunit(report)

  it('matches its snapshot', () => {
    expect(xml).toMatchSnapshot()
  })
  it('has the cases\' testsuite with their counts, one testcase per case that ran, and the gates\' testsuite, both in the totals', () => {
    expect(xml.match(/<testsuite /g)).toHaveLength(2)
    const failedGates = report.gates.filter(g => !g.passed).length
    expect(xml).toContain(`<testsuites name="judgeflow" tests="${5 + report.gates.length}" failures="${2 + failedGates}" errors="1" time="5.500">`)
    expect(xml).toContain('<testsuite name="support" tests="5" failures="2" errors="1" time="5.500" skipped="0">')
    expect(xml).toContain(`<testsuite name="gates" tests="${report.gates.length}" failures="${failedGates}" errors="0" time="0.000" skipped="0">`)
    expect(xml.match(/<testcase classname="support" /g)).toHaveLength(5)
    expect(xml.match(/<testcase classname="gates" /g)).toHaveLength(report.gates.length)
    expect(xml).toContain('<testcase classname="support" name="a" time="0.300">')
  })
  it('marks failed cases with <failure> and errored ones with <error>, escaped', () => {
    expect(xml).toMatch(/name="b"[^]*?<failure message="1 of 2 runs failed \(score 0.4\)" type="fail">repeat 1: pass, score 0.7, run b1\nrepeat 2: fail, score 0.4, run b2<\/failure>/)
    expect(xml).toContain('<error message="provider down: 503 &lt;Service &amp; &quot;Unavailable&quot;&gt;" type="errored">repeat 1: errored, run c1, provider down: 503 &lt;Service &amp; "Unavailable"&gt;\nrepeat 2: pass, score 0.9, run c2</error>')
    expect(xml).toMatch(/name="a" time="0.300">\n {6}<system-out>verdict: pass\nscore: 0.85\nrepeat 1: pass, score 0.9, run a1\nrepeat 2: pass, score 0.8, run a2<\/system-out>/)
    expect(xml).not.toMatch(/name="a"[^]*?<(failure|error)[^]*?name="b"/)
  })
  it('holds only what Jenkins\' xunit schema (junit-10.xsd) allows', () => {
    // junit-10.xsd: <testsuites> takes name, time, tests, failures, errors; a <testcase> holds only
    // skipped, error, failure, rerun…/flaky…, system-out and system-err; a <testsuite> has properties.
    const attributes = (tag: string) => [...xml.matchAll(new RegExp(`<${tag} ([^>]*)>`, 'g'))].flatMap(m => [...m[1]!.matchAll(/([\w-]+)="/g)].map(a => a[1]))
    for (const name of attributes('testsuites')) expect(['name', 'time', 'tests', 'failures', 'errors']).toContain(name)
    for (const name of attributes('testcase')) expect(['name', 'time', 'classname', 'group']).toContain(name)
    const testcases = [...xml.matchAll(/<testcase [^>]*>([^]*?)<\/testcase>/g)].map(m => m[1]!)
    expect(testcases).toHaveLength(5 + report.gates.length)
    for (const body of testcases) {
      const children = [...body.replace(/<(failure|error|system-out)[^>]*>[^]*?<\/\1>/g, '<$1/>').matchAll(/<([\w-]+)/g)].map(m => m[1])
      for (const child of children) expect(['skipped', 'error', 'failure', 'system-out', 'system-err']).toContain(child)
    }
  })
  it('escapes markup, quotes and characters XML does not allow', () => {
    expect(xmlAttribute('a<b>&"c\'\nd')).toBe('a&lt;b&gt;&amp;&quot;c&apos;&#10;d')
    expect(xmlText('a\u0000b\u001Fc\uD800d 😀')).toBe('a\uFFFDb\uFFFDc\uFFFDd 😀')
    const odd = { ...dataset, name: 'a&b', cases: [{ id: '<q "1">', input: {} }] }
    const text = datasetReportToJunit(buildDatasetReport({ dataset: odd, target: { evaluator: true }, results: [{ case_id: '<q "1">', repeat: 1, status: 'succeeded', verdict: 'pass' }] }))
    expect(text).toContain('<testcase classname="a&amp;b" name="&lt;q &quot;1&quot;&gt;" time="0.000">')
  })
})
