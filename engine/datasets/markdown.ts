/**
 * A dataset report as Markdown (for `judgeflow test --markdown`, a CI job summary or a pull
 * request comment): the figures first, then the gates, the agreement with people, the baseline,
 * a table of the failed and errored cases (input, expected, output, why), and the flaky cases, each
 * capped.
 */
import { changeText, regressionRule } from './baseline'
import { caseReason, excerpt, expectedText, inputExcerpt, telling } from './case-reasons'
import { summarizeCases } from './outcomes'
import type { DatasetReport } from './report'
import type { DatasetCase } from './schema'
import { usdText } from '../providers/prices'
import { round4, type Interval } from './stats'
import { recordedOutputsNote } from './recorded-outputs-note'
import { reportWarningLine } from './report-warnings'
import { calibrationText, kappaUncertainty } from './kappa-interval'

/** The most cases a list shows before "… and N more". */
export const LIST_CAP = 20

const GATE_LABELS = { min_pass_rate: 'pass rate ≥', min_kappa: 'κ ≥', min_kappa_lower: 'calibration κ lower bound ≥', no_regressions: 'regressions ≤', max_flaky: 'flaky share ≤', max_cost_usd: 'budget in USD', max_errors: 'errored cases ≤' } as const

/** Text safe inside a table cell or a list item: Markdown's punctuation escaped, on one line. */
export function markdownText(text: string): string {
  return text.replace(/[\\`*_[\]<>|#~!]/g, '\\$&').replace(/\s*[\r\n]+\s*/g, ' ')
}

/** A code span that holds any text: its fence longer than the longest run of backticks inside. */
export function markdownCode(text: string): string {
  const flat = text.replace(/[\r\n]+/g, ' ')
  const longest = Math.max(0, ...(flat.match(/`+/g) ?? []).map(run => run.length))
  const fence = '`'.repeat(longest + 1)
  const pad = flat.startsWith('`') || flat.endsWith('`') ? ' ' : ''
  return `${fence}${pad}${flat}${pad}${fence}`
}

const num = (x: number | null) => (x === null ? '—' : String(x))
const pct = (x: number) => `${(x * 100).toFixed(1)} %`
const ci = (interval: Interval | null, format: (x: number) => string = String) => (interval ? ` (95 % CI ${format(interval[0])}–${format(interval[1])})` : '')
const row = (cells: ReadonlyArray<string | number>) => `| ${cells.join(' | ')} |`
const clip = (text: string, max = 200) => (text.length > max ? `${text.slice(0, max - 1)}…` : text)

/** At most LIST_CAP lines, then "… and N more". */
function capped(lines: string[]): string[] {
  return lines.length > LIST_CAP ? [...lines.slice(0, LIST_CAP), `- … and ${lines.length - LIST_CAP} more`] : lines
}

/** A table cell's output excerpt is cut past this many characters. */
const CELL_OUTPUT_LIMIT = 160

/** How the Markdown report names what was run. */
export interface MarkdownReportOptions {
  /**
   * The target as a person knows it: `{ what: 'workflow file', name: 'gate.json' }` reads "Target:
   * the workflow file `gate.json`." Without it, a workflow is named by its stored id, which means
   * nothing outside the database it is kept in.
   */
  target?: { what: 'workflow file' | 'workflow' | 'evaluator config' | 'promptfoo config', name: string }
}

/** `cases`: the dataset's cases, whose inputs and expected answers the table of failed cases shows (the report holds neither). */
export function datasetReportToMarkdown(report: DatasetReport, cases?: readonly DatasetCase[], options: MarkdownReportOptions = {}): string {
  const target = targetText(report, options.target)
  const lines = [
    `# Dataset ${markdownText(report.dataset.name)} (version ${report.dataset.version})`,
    '',
    `Target: ${target}.`,
    '',
    ...(report.recorded_outputs ? [markdownText(recordedOutputsNote(report.recorded_outputs)), ''] : []),
    ...(report.warnings ?? []).flatMap(w => [`> **${markdownText(reportWarningLine(w, report.results.length))}**`, '']),
    row(['', '']),
    row(['---', '---:']),
    row(['cases', report.cases]),
    row(['passed', report.passed]),
    row(['failed', report.failed]),
    row(['errored (not in the pass rate)', report.errored]),
    row(['pass rate', report.pass_rate === null ? '—' : `${pct(report.pass_rate)}${ci(report.pass_rate_ci, pct)}`]),
    row(['mean score', `${num(report.mean_score)}${ci(report.mean_score_ci)}`]),
    row(['flaky cases', report.flaky.length]),
    ...(report.pass_all_repeats === undefined
      ? []
      : [row(['pass^N (every repeat passed)', pctOrDash(report.pass_all_repeats)]), row(['pass@N (a repeat passed)', pctOrDash(report.pass_any_repeat ?? null)])]),
    row(['latency p50 / p95', `${num(report.latency_ms.p50)} ms / ${num(report.latency_ms.p95)} ms`]),
    row(['latency total', `${(report.latency_ms.total / 1000).toFixed(1)} s`]),
    row(['tokens in / out', `${report.tokens.input} / ${report.tokens.output}`]),
    ...(report.cost_usd === undefined ? [] : [row(['cost', report.cost_usd === null ? 'not known (a model without a price)' : usdText(report.cost_usd)])]),
    ...(report.not_run?.length ? [row(['not run (a budget or a cancel left them)', report.not_run.length])] : []),
    ...(report.calibration ? [row(['calibration against people', markdownText(withUncertainty(calibrationText(report.calibration), report.calibration))])] : []),
    '',
    ...gatesSection(report),
    ...tagsSection(report),
    ...agreementSection(report),
    ...baselineSection(report),
    ...casesSection(report, cases),
  ]
  return `${lines.join('\n').trimEnd()}\n`
}

function targetText(report: DatasetReport, named: MarkdownReportOptions['target']): string {
  if (named) return `the ${named.what} ${markdownCode(named.name)}`
  return 'workflow_id' in report.target ? `workflow ${markdownCode(report.target.workflow_id)}` : 'an evaluator config'
}

const pctOrDash = (x: number | null) => (x === null ? '—' : pct(x))
/** A κ that cannot tell is marked so, never shown as plainly as a tight one (kappa-interval.ts). */
const warning = (m: { kappa_ci: Interval | null, labelled: number }) => {
  const uncertain = kappaUncertainty(m)
  return uncertain ? ` — ⚠️ ${uncertain}` : ''
}
const withUncertainty = (text: string, m: { kappa_ci: Interval | null, labelled: number }) => `${text}${warning(m)}`

function gatesSection(report: DatasetReport): string[] {
  if (!report.gates.length) return []
  const failed = report.gates.filter(g => !g.passed)
  return [
    '## Gates',
    '',
    failed.length ? `**${failed.length} of ${report.gates.length} gates failed: ${failed.map(g => g.gate).join(', ')}.**` : `**Every gate holds (${report.gates.length}).**`,
    '',
    row(['gate', 'required', 'actual', '']),
    row(['---', '---:', '---:', ':---:']),
    ...report.gates.map(g => row([g.gate, `${GATE_LABELS[g.gate]} ${g.required}`, num(g.actual), g.passed ? '✅' : '❌'])),
    '',
  ]
}

function tagsSection(report: DatasetReport): string[] {
  const tags = Object.keys(report.by_tag).sort()
  if (!tags.length) return []
  return [
    '## By tag',
    '',
    row(['tag', 'cases', 'passed', 'pass rate']),
    row(['---', '---:', '---:', '---:']),
    ...tags.map((tag) => {
      const t = report.by_tag[tag]!
      return row([markdownText(tag), t.cases, t.passed, t.pass_rate === null ? '—' : pct(t.pass_rate)])
    }),
    '',
  ]
}

function agreementSection(report: DatasetReport): string[] {
  const a = report.agreement
  if (!a) return []
  const judges = a.judges
    ? [
        '## Agreement between judges',
        '',
        `- ${a.judges.models.map(markdownCode).join(', ')} over ${a.judges.runs} runs: Fleiss' κ ${num(a.judges_kappa ?? null)}, pairs agreeing ${pct(a.judges.pair_agreement)}`,
        '',
      ]
    : []
  if (!a.labelled) return judges
  const c = a.confusion
  const best = a.threshold_sweep.find(s => s.threshold === a.recommended_threshold)
  return [
    `## Agreement with people (${a.labelled} labelled cases)`,
    '',
    row(['', 'judged pass', 'judged fail']),
    row(['---', '---:', '---:']),
    row(['expected pass', c.pass_pass, c.pass_fail]),
    row(['expected fail', c.fail_pass, c.fail_fail]),
    '',
    `- accuracy ${num(a.accuracy)} (always answering the majority verdict: ${num(a.baseline_accuracy)})`,
    `- Cohen's κ ${num(a.kappa)}${ci(a.kappa_ci)}${warning(a)}`,
    `- fail precision ${num(a.fail_precision)}, fail recall ${num(a.fail_recall)}`,
    `- Spearman's ρ (judged vs expected score) ${num(a.spearman)}`,
    ...(a.recommended_threshold === null ? [] : [`- recommended pass threshold ${a.recommended_threshold} (κ ${num(best?.kappa ?? null)})`]),
    '',
    ...(a.reliability.length
      ? [row(['confidence', 'cases', 'accuracy']), row(['---', '---:', '---:']), ...a.reliability.map(b => row([`[${b.confidence[0]}, ${b.confidence[1]}${b.confidence[1] === 1 ? ']' : ')'}`, b.cases, b.accuracy])), '']
      : []),
    ...judges,
  ]
}

function baselineSection(report: DatasetReport): string[] {
  const b = report.baseline
  if (!b) return []
  const drops = b.score_deltas.filter(d => d.delta < 0).sort((x, y) => x.delta - y.delta)
  const changes = new Map((b.changes ?? []).map(c => [c.case_id, c]))
  const changed = (id: string) => {
    const change = changes.get(id)
    return `- ${markdownCode(id)}${change ? `: ${changeText(change)}` : ''}`
  }
  return [
    `## Against ${markdownText(b.report)}`,
    '',
    `Regressions: ${b.regressions.length}, fixes: ${b.fixes.length}; ${regressionRule(b)}. McNemar's exact test on the pass rate over the cases judged both times: p = ${b.mcnemar_p}.`,
    '',
    ...caseList('Regressions', b.regressions.map(changed)),
    ...caseList('Fixes', b.fixes.map(changed)),
    ...caseList('Largest score drops', drops.map(d => `- ${markdownCode(d.case_id)}: ${d.before} → ${d.after} (${d.delta})`)),
  ]
}

function casesSection(report: DatasetReport, cases?: readonly DatasetCase[]): string[] {
  const byId = new Map((cases ?? []).map(c => [c.id, c]))
  const rows: string[] = []
  let failed = 0, errored = 0
  for (const [id, s] of summarizeCases(report.results)) {
    if (s.outcome === 'passed') continue
    if (s.outcome === 'failed') failed++
    else errored++
    const item = byId.get(id)
    const output = telling(s).output
    rows.push(row([
      // A `|` splits a table row even inside a code span.
      markdownCode(id).replace(/\|/g, '\\|'),
      s.outcome === 'errored' ? 'errored' : `failed${s.score === null ? '' : ` (score ${round4(s.score)})`}`,
      markdownText(inputExcerpt(item)),
      markdownText(expectedText(item)),
      output === null ? '' : markdownText(excerpt(output, CELL_OUTPUT_LIMIT)),
      markdownText(clip(caseReason(s))),
    ]))
  }
  const table = rows.length
    ? [
        `### Failed and errored cases (${failed} failed, ${errored} errored)`,
        '',
        row(['case', 'outcome', 'input', 'expected', 'output', 'reason']),
        row(['---', '---', '---', '---', '---', '---']),
        ...rows.slice(0, LIST_CAP),
        ...(rows.length > LIST_CAP ? ['', `… and ${rows.length - LIST_CAP} more`] : []),
        '',
      ]
    : []
  return [
    ...table,
    ...caseList('Flaky cases (verdicts differ across repeats)', report.flaky.map(id => `- ${markdownCode(id)}`)),
  ]
}

function caseList(title: string, lines: string[]): string[] {
  return lines.length ? [`### ${title} (${lines.length})`, '', ...capped(lines), ''] : []
}
