/**
 * A dataset report as JUnit XML, so CI systems list the failed cases natively: one <testsuite>
 * named after the dataset (its figures and gates as properties), one <testcase> per case (classname
 * the dataset's name, name the case id) with its score, verdict and runs in <system-out>; a failed
 * case carries a <failure> whose message names its first failed check, the reason and an excerpt of
 * the output, an errored one an <error> with its message; the failure's text and <system-out> list
 * every run's checks (✓ / ✗, score, reason) and its output, so a CI log says why without the app.
 * A second <testsuite> named `gates` holds one <testcase> per gate of the report, a failed gate
 * as a <failure> saying what was required and what was measured, so a CI dashboard shows why a
 * job whose every case passed still failed. Only what Jenkins' xunit schema (junit-10.xsd)
 * allows: no properties in a testcase, no `skipped` on <testsuites>.
 */
import { checkLines, excerpt, runReason, telling } from './case-reasons'
import { summarizeCases } from './outcomes'
import type { DatasetReport, ReportResult } from './report'
import { round4 } from './stats'
import { reportWarningLine } from './report-warnings'

// Characters XML 1.0 does not allow at all (controls other than tab, newline, return; lone surrogates; U+FFFE/F).
const INVALID_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g
const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', '\'': '&apos;', '\n': '&#10;', '\r': '&#13;', '\t': '&#9;' }

/** Text for an attribute value: markup and quotes escaped, line breaks and tabs kept as character references. */
export function xmlAttribute(value: string | number): string {
  return String(value).replace(INVALID_XML, '\uFFFD').replace(/[&<>"'\n\r\t]/g, ch => ENTITIES[ch]!)
}

/** Text for element content: markup escaped, line breaks kept as they are. */
export function xmlText(value: string): string {
  return value.replace(INVALID_XML, '\uFFFD').replace(/[&<>]/g, ch => ENTITIES[ch]!)
}

const seconds = (ms: number) => (ms / 1000).toFixed(3)
const property = (name: string, value: string | number) => `<property name="${xmlAttribute(name)}" value="${xmlAttribute(value)}"/>`

function runLine(r: ReportResult): string {
  const parts = [`repeat ${r.repeat}: ${r.status === 'errored' ? 'errored' : (r.verdict ?? 'no verdict')}`]
  if (r.score !== null) parts.push(`score ${r.score}`)
  if (r.run_id !== null) parts.push(`run ${r.run_id}`)
  if (r.error !== null) parts.push(r.error)
  return parts.join(', ')
}

/** A run's line, then its checks and its output, indented under it. */
function runDetails(r: ReportResult): string[] {
  return [
    runLine(r),
    ...checkLines(r.checks).map(line => `  ${line}`),
    ...(r.output === null ? [] : [`  output: ${r.output}`]),
  ]
}

export function datasetReportToJunit(report: DatasetReport): string {
  const suite = report.dataset.name
  const summaries = summarizeCases(report.results)
  const flaky = new Set(report.flaky)
  const testcases: string[] = []
  let totalMs = 0
  for (const [id, summary] of summaries) {
    const ms = summary.runs.reduce((sum, r) => sum + (r.latency_ms ?? 0), 0)
    totalMs += ms
    const facts = [
      ...(summary.verdict === null ? [] : [`verdict: ${summary.verdict}`]),
      ...(summary.score === null ? [] : [`score: ${round4(summary.score)}`]),
      ...(flaky.has(id) ? ['flaky: its repeats disagree'] : []),
      ...(summary.runs[0]?.panel?.verdict_rule ? [`judge panel: ${summary.runs[0].panel.verdict_rule}`] : []),
      ...summary.runs.flatMap(runDetails),
    ]
    const details = xmlText(summary.runs.flatMap(runDetails).join('\n'))
    const body = summary.outcome === 'errored'
      ? `<error message="${xmlAttribute(summary.error ?? 'errored')}" type="errored">${details}</error>`
      : summary.outcome === 'failed'
        ? `<failure message="${xmlAttribute(failureMessage(summary.runs, telling(summary)))}" type="fail">${details}</failure>`
        : ''
    testcases.push(`    <testcase classname="${xmlAttribute(suite)}" name="${xmlAttribute(id)}" time="${seconds(ms)}">`
      + (body ? `\n      ${body}` : '')
      + `\n      <system-out>${xmlText(facts.join('\n'))}</system-out>`
      + '\n    </testcase>')
  }
  const kappa = report.agreement?.kappa ?? null
  const counts = `tests="${summaries.size}" failures="${report.failed}" errors="${report.errored}" time="${seconds(totalMs)}"`
  const failedGates = report.gates.filter(g => !g.passed)
  const gateCounts = `tests="${report.gates.length}" failures="${failedGates.length}" errors="0" time="0.000"`
  const allCounts = `tests="${summaries.size + report.gates.length}" failures="${report.failed + failedGates.length}" errors="${report.errored}" time="${seconds(totalMs)}"`
  const gateCases = report.gates.map((g) => {
    const measured = `required ${g.required}, actual ${g.actual ?? 'none'}`
    const failure = g.passed ? '' : `\n      <failure message="${xmlAttribute(`${g.gate} failed: ${measured}`)}" type="gate">${xmlText(gateWhy(g.gate, measured, report))}</failure>`
    return `    <testcase classname="gates" name="${xmlAttribute(g.gate)}" time="0.000">${failure}\n      <system-out>${xmlText(`${g.passed ? 'passed' : 'failed'}: ${measured}`)}</system-out>\n    </testcase>`
  })
  const suiteProperties = [
    property('dataset_id', report.dataset.id),
    property('dataset_version', report.dataset.version),
    ...(report.pass_rate === null ? [] : [property('pass_rate', report.pass_rate)]),
    ...(kappa === null ? [] : [property('kappa', kappa)]),
    ...(report.agreement?.judges_kappa == null ? [] : [property('judges_kappa', report.agreement.judges_kappa)]),
    ...(report.cost_usd == null ? [] : [property('cost_usd', report.cost_usd)]),
    ...(report.not_run?.length ? [property('not_run', report.not_run.length)] : []),
    ...(report.recorded_outputs ? [property('recorded_outputs', report.recorded_outputs.from), ...(report.recorded_outputs.step ? [property('recorded_output_step', report.recorded_outputs.step)] : [])] : []),
    ...(report.warnings ?? []).map(w => property('warning', reportWarningLine(w, report.results.length))),
    ...(report.pass_all_repeats == null ? [] : [property('pass_all_repeats', report.pass_all_repeats)]),
    ...(report.pass_any_repeat == null ? [] : [property('pass_any_repeat', report.pass_any_repeat)]),
    ...report.gates.map(g => property(`gate.${g.gate}`, `${g.passed ? 'passed' : 'failed'} (required ${g.required}, actual ${g.actual ?? 'none'})`)),
  ]
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="judgeflow" ${allCounts}>`,
    `  <testsuite name="${xmlAttribute(suite)}" ${counts} skipped="0">`,
    `    <properties>${suiteProperties.join('')}</properties>`,
    ...testcases,
    '  </testsuite>',
    ...(report.gates.length ? [`  <testsuite name="gates" ${gateCounts} skipped="0">`, ...gateCases, '  </testsuite>'] : []),
    '</testsuites>',
    '',
  ].join('\n')
}

/** What a failed gate means, for the failure's text. */
function gateWhy(gate: string, measured: string, report: DatasetReport): string {
  const left = report.not_run?.length ?? 0
  const notRun = left ? `; ${left} case${left === 1 ? '' : 's'} not run` : ''
  const meaning: Record<string, string> = {
    min_pass_rate: 'the share of judged cases that passed is under the minimum',
    min_kappa: 'the judge\'s agreement with the expected verdicts, Cohen\'s κ, is under the minimum',
    min_kappa_lower: 'the lower bound of the judge\'s calibration κ interval (--require-calibration) is under the minimum, or there is none to trust (fewer than 30 labelled cases): too few cases, or too much disagreement, to be sure of the κ',
    no_regressions: 'cases that passed in the baseline fail now',
    max_flaky: 'more cases than allowed gave different verdicts on their repeats',
    max_cost_usd: 'the runs cost more than the budget, a run\'s cost was not known, or the budget left cases not run',
    max_errors: 'more cases errored than allowed',
  }
  return `${gate}: ${meaning[gate] ?? 'the gate does not hold'} (${measured}${notRun}).`
}

/** How many runs failed and their scores, then why the first did (its first failed check) and what it answered. */
function failureMessage(runs: readonly ReportResult[], first: ReportResult): string {
  const failing = runs.filter(r => r.status === 'succeeded' && r.verdict !== 'pass')
  const scores = failing.flatMap(r => (r.score === null ? [] : [r.score]))
  const which = runs.length > 1 ? `${failing.length} of ${runs.length} runs failed` : 'verdict fail'
  const counted = scores.length ? `${which} (score ${scores.join(', ')})` : which
  const why = first.checks?.some(c => c.passed === false) ? `: ${excerpt(runReason(first))}` : ''
  const output = first.output === null ? '' : ` | output: ${excerpt(first.output)}`
  return `${counted}${why}${output}`
}
