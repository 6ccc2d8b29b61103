import { execFileSync } from 'node:child_process'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parse as parseCsv } from 'csv-parse/sync'
import { describe, expect, it } from 'vitest'
import { OUTPUT_EXCERPT_LIMIT } from '../../../engine/datasets/case-reasons'
import { restoreCell } from '../../../engine/datasets/csv-cells'
import { datasetReportToHtml } from '../../../engine/datasets/html'
import { datasetReportToJunit } from '../../../engine/datasets/junit'
import { datasetReportToMarkdown } from '../../../engine/datasets/markdown'
import { RESULTS_CSV_COLUMNS, datasetResultsToCsv, datasetResultsToJsonl } from '../../../engine/datasets/results-files'
import { checkedCases, checkedReport as report, HOSTILE_OUTPUT } from './checked-fixture'
import { dataset, results } from './fixture'
import { buildDatasetReport } from '../../../engine/datasets/report'

const SCHEMA = join(import.meta.dirname, '../../support/junit-10.xsd')

/** xmllint's verdict on the XML against Jenkins' xunit schema: its output, thrown when invalid. */
function validate(xml: string): string {
  const file = join(mkdtempSync(join(tmpdir(), 'judgeflow-junit-')), 'report.xml')
  writeFileSync(file, xml)
  return execFileSync('xmllint', ['--noout', '--schema', SCHEMA, file], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] })
}

describe('JUnit XML with checks and outputs', () => {
  const xml = datasetReportToJunit(report)
  const testcase = (id: string) => xml.match(new RegExp(`<testcase [^>]*name="${id}"[^>]*>([^]*?)</testcase>`))![1]!

  it('is valid against junit-10.xsd, hostile text included', () => {
    expect(() => validate(xml)).not.toThrow()
    expect(() => validate(datasetReportToJunit(buildDatasetReport({ dataset, target: { evaluator: true }, results })))).not.toThrow()
  })
  it('the schema test catches what the schema refuses', () => {
    expect(() => validate(xml.replace('<testsuites name="judgeflow"', '<testsuites skipped="0" name="judgeflow"'))).toThrow()
  })
  it('names the first failed check, its reason and an excerpt of the output in the failure message', () => {
    expect(testcase('refund')).toContain('<failure message="verdict fail (score 0.5): llm-rubric: misses the refund window | output: We never refund." type="fail">')
    const long = testcase('long').match(/<failure message="([^"]*)"/)![1]!
    expect(long).toBe(`verdict fail (score 0.2) | output: ${'x'.repeat(OUTPUT_EXCERPT_LIMIT - 1)}…`)
  })
  it('lists every check and the output in the failure text and in system-out', () => {
    const body = testcase('refund')
    const details = 'repeat 1: fail, score 0.5\n  ✓ contains (score 1): Output contains "refund"\n  ✗ llm-rubric (score 0): misses the refund window\n  output: We never refund.'
    expect(body).toContain(`type="fail">${details}</failure>`)
    expect(body).toContain(`<system-out>verdict: fail\nscore: 0.5\n${details}</system-out>`)
    expect(testcase('long')).toContain('  · clarity (score 0.2): rambles')
  })
  it('escapes markup, ]]> and control characters in outputs and reasons', () => {
    const body = testcase('xss')
    expect(body).not.toContain('<script')
    expect(body).not.toContain(']]>')
    expect(body).not.toMatch(/[\u0001\u0002]/)
    expect(body).toContain('✗ equals &lt;b&gt; (score 0): Expected "&lt;/pre&gt;&lt;script&gt;alert(2)&lt;/script&gt;" ]]&gt; got \uFFFD something')
    expect(body).toContain('message="verdict fail (score 0): equals &lt;b&gt;: Expected &quot;&lt;/pre&gt;')
  })
  it('writes each gate as a testcase of a `gates` testsuite, a failed one as a failure, counted in the totals', () => {
    // The fixture's gates: a pass rate of 0.25 under 0.5, and one errored case against max_errors 0.
    const gates = xml.match(/<testsuite name="gates" ([^>]*)>([^]*?)<\/testsuite>/)!
    expect(gates[1]).toBe('tests="2" failures="2" errors="0" time="0.000" skipped="0"')
    expect(gates[2]).toContain('<testcase classname="gates" name="min_pass_rate" time="0.000">\n      <failure message="min_pass_rate failed: required 0.5, actual 0.25" type="gate">min_pass_rate: the share of judged cases that passed is under the minimum (required 0.5, actual 0.25).</failure>')
    expect(gates[2]).toContain('<testcase classname="gates" name="max_errors" time="0.000">\n      <failure message="max_errors failed: required 0, actual 1" type="gate">')
    const cases = xml.match(/<testsuite name="refunds[^"]*" ([^>]*)>/)![1]
    const failed = Number(/failures="(\d+)"/.exec(cases!)![1])
    expect(xml).toMatch(new RegExp(`<testsuites name="judgeflow" tests="\\d+" failures="${failed + 2}"`))
  })
  it('fails in JUnit when every case passed but a gate did not: the job\'s exit and the file agree', () => {
    const passing = results.filter(r => r.verdict === 'pass')
    const passingDataset = { ...dataset, cases: dataset.cases.filter(c => passing.some(r => r.case_id === c.id)) }
    const gated = buildDatasetReport({ dataset: passingDataset, target: { evaluator: true }, results: passing, gates: { min_kappa: 0.5 } })
    expect(gated.failed).toBe(0)
    expect(gated.gates.find(g => g.gate === 'min_kappa')?.passed).toBe(false)
    const junit = datasetReportToJunit(gated)
    expect(() => validate(junit)).not.toThrow()
    expect(junit).toMatch(/<testsuites name="judgeflow" tests="\d+" failures="1"/)
    expect(junit).toContain('<failure message="min_kappa failed: required 0.5, actual 0" type="gate">')
  })
  it('keeps an errored case\'s error', () => {
    expect(testcase('=formula')).toContain('<error message="=HYPERLINK(&quot;http://x.example&quot;) provider down" type="errored">')
  })
})

describe('Markdown table of failed and errored cases', () => {
  const markdown = datasetReportToMarkdown(report, checkedCases)

  it('gives each failed or errored case its input, expected, output and reason, | and line breaks escaped', () => {
    expect(markdown).toContain('### Failed and errored cases (3 failed, 1 errored)\n\n| case | outcome | input | expected | output | reason |\n| --- | --- | --- | --- | --- | --- |')
    expect(markdown).toContain('| `refund` | failed (score 0.5) | question: Can I get a refund \\| after 40 days?; locale: en | pass, reference: Within 30 days only. | We never refund. | llm-rubric: misses the refund window |')
    expect(markdown).toContain('| `=formula` | errored | question: =1+1 |  |  | =HYPERLINK("http://x.example") provider down |')
    const xss = markdown.split('\n').find(line => line.startsWith('| `xss`'))!
    expect(xss.split(/(?<!\\)\|/)).toHaveLength(8)
    expect(xss).toContain('bell \\| pipe next line')
    expect(markdown).not.toContain('| `ok`')
  })
  it('leaves input and expected empty without the cases, and keeps the rest', () => {
    const bare = datasetReportToMarkdown(report)
    expect(bare).toContain('| `refund` | failed (score 0.5) |  |  | We never refund. | llm-rubric: misses the refund window |')
    expect(bare).toMatch(/^# Dataset refunds \\<&\\> \(version 1\)/)
    expect(bare).toContain('| min_pass_rate | pass rate ≥ 0.5 | 0.25 | ❌ |')
  })
})

describe('HTML report', () => {
  const html = datasetReportToHtml(report)

  it('names no URL and loads nothing: CSS and script inline, a policy that forbids the rest', () => {
    expect(html).not.toMatch(/\b(src|href)\s*=/i)
    expect(html.replace('http://x.example', '')).not.toMatch(/https?:|\/\//)
    expect(html).toContain('<meta http-equiv="Content-Security-Policy" content="default-src \'none\'; style-src \'unsafe-inline\'; script-src \'unsafe-inline\'">')
    expect(html.match(/<script>/g)).toHaveLength(1)
  })
  it('escapes every text of the report', () => {
    expect(html).not.toContain('<script>alert')
    expect(html).not.toContain('<img')
    expect(html).not.toContain('</pre><script>')
    expect(html).toContain('A &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;q&#39; ]]&gt;')
    expect(html).toContain('<title>Dataset refunds &lt;&amp;&gt; (version 1)</title>')
  })
  it('shows the figures, the gates and one row per case with its verdict, score, first failed check, reason and output', () => {
    expect(html).toContain('<tr><th>pass rate</th><td class="num">25.0 % (95 % CI')
    expect(html).toContain('<tr><td>min_pass_rate</td><td class="num">0.5</td><td class="num">0.25</td><td class="failed">failed</td></tr>')
    expect(html).toContain('<tr><td>max_errors</td><td class="num">0</td><td class="num">1</td><td class="failed">failed</td></tr>')
    expect(html).toContain('<tr data-outcome="failed"><td>refund</td><td><pre></pre></td><td></td><td class="failed">fail</td><td class="num">0.5</td><td>llm-rubric</td><td><pre>llm-rubric: misses the refund window</pre></td><td><pre>We never refund.</pre></td></tr>')
    expect(html).toContain('<tr data-outcome="errored"><td>=formula</td><td><pre></pre></td><td></td><td class="errored">errored</td><td class="num">—</td><td></td>')
    expect(html).toContain('<tr data-outcome="passed"><td>ok</td><td><pre></pre></td><td></td><td class="passed">pass</td>')
    expect(html).toContain('data-filter="all" aria-pressed="true">all (5)</button><button type="button" data-filter="failed" aria-pressed="false">failed (3)</button><button type="button" data-filter="errored" aria-pressed="false">errored (1)</button>')
    expect(html).toContain(`<pre>${'x'.repeat(OUTPUT_EXCERPT_LIMIT - 1)}…</pre>`)
  })
  it('gives each case its input and expected verdict when the dataset\'s cases are given, escaped', () => {
    const withCases = datasetReportToHtml(report, checkedCases)
    expect(withCases).toContain('<th>case</th><th>input</th><th>expected</th><th>judged</th><th>score</th><th>first failed check</th><th>reason</th><th>output</th>')
    expect(withCases).toContain('<tr data-outcome="failed"><td>refund</td><td><pre>question: Can I get a refund | after 40 days?; locale: en</pre></td><td>pass, reference: Within 30 days only.</td><td class="failed">fail</td>')
    expect(withCases).toContain('<td>xss</td><td><pre>question: &lt;img src=x onerror=alert(1)&gt;</pre></td><td></td>')
    expect(withCases).not.toContain('<img')
  })
  it('shows the agreement with people: the confusion matrix, κ, the measures beside it and the recommended threshold', () => {
    const a = report.agreement!
    expect(a.labelled).toBe(2)
    expect(html).toContain('<section aria-labelledby="agreement-title"><h2 id="agreement-title">Agreement with people (2 labelled cases)</h2>')
    expect(html).toContain('<caption>Confusion matrix: expected verdict by judged verdict</caption>')
    expect(html).toContain(`<tr><th scope="row">expected pass</th><td class="num">${a.confusion.pass_pass}</td><td class="num">${a.confusion.pass_fail}</td></tr>`)
    expect(html).toContain(`<tr><th scope="row">expected fail</th><td class="num">${a.confusion.fail_pass}</td><td class="num">${a.confusion.fail_fail}</td></tr>`)
    expect(html).toMatch(/<li( class="uncertain")?>Cohen&#39;s κ /)
    expect(html).toContain(`fail precision ${a.fail_precision ?? '—'}, fail recall ${a.fail_recall ?? '—'}`)
  })
  it('leaves the agreement out when no case has a label', () => {
    const cases = dataset.cases.map(({ expected: _e, ...c }) => c)
    const unlabelled = buildDatasetReport({ dataset: { ...dataset, cases }, target: { evaluator: true }, results })
    expect(datasetReportToHtml(unlabelled)).not.toContain('Agreement with people')
  })
})

describe('CSV and JSONL of the results', () => {
  it('writes one CSV row per run, no cell opening a formula, each reading back as it was', () => {
    const csv = datasetResultsToCsv(report)
    const rows = parseCsv(csv) as string[][]
    expect(rows[0]).toEqual([...RESULTS_CSV_COLUMNS])
    expect(rows).toHaveLength(6)
    expect(rows[1]).toEqual(['refund', '1', 'succeeded', 'fail', '0.5', '120', 'llm-rubric', 'llm-rubric: misses the refund window', 'We never refund.'])
    expect(rows[3]).toEqual(['\'=formula', '1', 'errored', '', '', '10', '', '\'=HYPERLINK("http://x.example") provider down', ''])
    expect(rows[4]).toEqual(['ok', '1', 'succeeded', 'pass', '1', '50', '', '', 'Hi!'])
    expect(rows[2]![8]).toBe(HOSTILE_OUTPUT)
    expect(rows[5]![8]).toHaveLength(OUTPUT_EXCERPT_LIMIT)
    for (const row of rows.slice(1)) for (const cell of row) expect(cell).not.toMatch(/^[=+\-@\t\r]/)
    expect(restoreCell(rows[3]![0]!)).toBe('=formula')
  })
  it('writes one result object per line, as the JSON report holds it', () => {
    const lines = datasetResultsToJsonl(report).split('\n')
    expect(lines.at(-1)).toBe('')
    expect(lines.slice(0, -1).map(line => JSON.parse(line))).toEqual(report.results)
  })
})

describe('a judge panel\'s rule and a calibration that cannot tell, in every format', () => {
  const judges = [{ model: 'openai:a', passed: true, overall_score: 0.9 }, { model: 'openai:b', passed: true, overall_score: 0.8 }, { model: 'openai:c', passed: false, overall_score: 0.2 }]
  const passedRule = 'passed: 2 of 3 judges passed (majority), though the mean score 0.63 is under 0.70'
  const failedRule = 'failed: 1 of 3 judges passed, not more than half (majority), though the mean score 0.72 reaches 0.70'
  const panelled = buildDatasetReport({
    dataset: { id: 'ds-p', name: 'panel', version: 1, cases: [{ id: 'p1', input: {} }, { id: 'p2', input: {} }] },
    target: { evaluator: true },
    results: [
      { case_id: 'p1', repeat: 1, status: 'succeeded', verdict: 'pass', score: 0.633, panel: { judges, agreement: 0.333, verdict_rule: passedRule } },
      { case_id: 'p2', repeat: 1, status: 'succeeded', verdict: 'fail', score: 0.72, panel: { judges: [...judges].reverse(), agreement: 0.333, verdict_rule: failedRule } },
    ],
    gates: { min_pass_rate: 0 },
    calibration: { dataset: { name: 'support-cases', version: 2 }, dataset_run_id: 'dr-1', kappa: 0.6, kappa_ci: [0, 1], labelled: 10, min_kappa: 0.5, min_kappa_lower: 0.4 },
  })

  it('the calibration\'s lower bound is a gate, none to trust under 30 labelled cases', () => {
    expect(panelled.gates).toContainEqual({ gate: 'min_kappa_lower', required: 0.4, actual: null, passed: false })
    expect(panelled.calibration).toMatchObject({ kappa: 0.6, labelled: 10 })
  })
  it('Markdown says the rule of a failed case and the calibration with why it cannot tell', () => {
    const markdown = datasetReportToMarkdown(panelled)
    expect(markdown).toContain(`verdict fail (score 0.72); judge panel ${failedRule}`)
    expect(markdown).toContain('| calibration against people | κ 0.60 \\[0.00, 1.00\\] on support-cases v2 (10 labelled) — ⚠️ too few cases to tell: 10 labelled, 30 needed; the interval is 1.00 wide |')
    expect(markdown).toContain('| min_kappa_lower | calibration κ lower bound ≥ 0.4 | — | ❌ |')
  })
  it('HTML marks the calibration as uncertain and gives every panel case its rule', () => {
    const html = datasetReportToHtml(panelled)
    expect(html).toContain('<tr><th>calibration against people</th><td class="num uncertain">κ 0.60 [0.00, 1.00] on support-cases v2 (10 labelled) — too few cases to tell: 10 labelled, 30 needed; the interval is 1.00 wide</td></tr>')
    expect(html).toContain(`<pre>judge panel ${passedRule}</pre>`)
    expect(html).toContain(`<pre>verdict fail (score 0.72); judge panel ${failedRule}</pre>`)
  })
  it('JUnit lists the failed lower-bound gate and each panel case\'s rule, valid against junit-10.xsd', () => {
    const xml = datasetReportToJunit(panelled)
    expect(xml).toContain('<failure message="min_kappa_lower failed: required 0.4, actual none" type="gate">')
    expect(xml).toContain(`judge panel: ${passedRule}`)
    expect(() => validate(xml)).not.toThrow()
  })
})

describe('cases a budget left unrun, in the CSV and JSONL results', () => {
  const budgeted = buildDatasetReport({
    dataset: { id: 'ds-b', name: 'budget', version: 1, cases: [{ id: 'c1', input: {} }, { id: 'c2', input: {} }, { id: 'c3', input: {} }] },
    target: { evaluator: true },
    results: [{ case_id: 'c1', repeat: 1, status: 'succeeded', verdict: 'pass', score: 1, cost_usd: 0.002 }],
    max_cost_usd: 0.001,
  })

  it('has a row and a line for each, saying the budget left it and what was spent', () => {
    expect(budgeted.not_run).toEqual(['c2', 'c3'])
    const rows = parseCsv(datasetResultsToCsv(budgeted)) as string[][]
    expect(rows.slice(2)).toEqual([
      ['c2', '', 'not_run', '', '', '', '', 'not run: the budget of $0.001 was reached (spent: $0.002)', ''],
      ['c3', '', 'not_run', '', '', '', '', 'not run: the budget of $0.001 was reached (spent: $0.002)', ''],
    ])
    const lines = datasetResultsToJsonl(budgeted).trim().split('\n').map(line => JSON.parse(line))
    expect(lines.slice(1)).toEqual([
      { case_id: 'c2', status: 'not_run', reason: 'not run: the budget of $0.001 was reached (spent: $0.002)' },
      { case_id: 'c3', status: 'not_run', reason: 'not run: the budget of $0.001 was reached (spent: $0.002)' },
    ])
  })
})
