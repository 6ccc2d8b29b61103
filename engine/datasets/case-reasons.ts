/**
 * Why a case failed, as every report format says it: the first check that did not pass and its
 * reason (or the run's error), each check on a line of its own, and an excerpt of the output. The
 * formats share these so a CI log, a JUnit viewer, a Markdown comment and an HTML file agree.
 */
import type { CaseCheck } from './case-checks'
import type { CaseSummary } from './outcomes'
import type { ReportResult } from './report'
import type { DatasetCase } from './schema'
import { PROMPTFOO_RESERVED_FIELDS } from './promptfoo-fields'

/** An output shown in a failure message or a table cell is cut past this many characters. */
export const OUTPUT_EXCERPT_LIMIT = 300

/** The text cut past `max` characters, an ellipsis marking the cut. */
export function excerpt(text: string, max = OUTPUT_EXCERPT_LIMIT): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text
}

/** The first check that did not pass; a check without a verdict of its own (a criterion's score) is not one. */
export function firstFailedCheck(run: Pick<ReportResult, 'checks'>): CaseCheck | undefined {
  return run.checks?.find(c => c.passed === false)
}

/** Why one run did not pass: its error, its first failed check and reason, or its verdict (a judge panel's with the rule that decided it). */
export function runReason(run: ReportResult): string {
  if (run.status === 'errored') return run.error ?? 'errored'
  const check = firstFailedCheck(run)
  if (check) return check.reason ? `${check.name}: ${check.reason}` : check.name
  if (run.verdict === null) return 'no verdict'
  const rule = run.panel?.verdict_rule ? `; judge panel ${run.panel.verdict_rule}` : ''
  return `verdict ${run.verdict}${run.score === null ? '' : ` (score ${run.score})`}${rule}`
}

/** The run a case's row speaks of: its first errored run, else its first that did not pass, else its first. */
export function telling(summary: CaseSummary<ReportResult>): ReportResult {
  const runs = summary.runs
  return (summary.outcome === 'errored' ? runs.find(r => r.status === 'errored') : undefined)
    ?? runs.find(r => r.status === 'succeeded' && r.verdict !== 'pass')
    ?? runs[0]!
}

/** Why the case did not pass; when it passed, empty, or for a judge panel's pass the rule that passed it. */
export function caseReason(summary: CaseSummary<ReportResult>): string {
  if (summary.outcome !== 'passed') return runReason(telling(summary))
  const rule = summary.runs[0]?.panel?.verdict_rule
  return rule ? `judge panel ${rule}` : ''
}

/** One line per check: ✓ passed, ✗ failed, · scored without a verdict; then its score and reason. */
export function checkLines(checks: readonly CaseCheck[] | null): string[] {
  return (checks ?? []).map((c) => {
    const mark = c.passed === true ? '✓' : c.passed === false ? '✗' : '·'
    return `${mark} ${c.name}${c.score === null ? '' : ` (score ${c.score})`}${c.reason ? `: ${c.reason}` : ''}`
  })
}

/**
 * A case's input as a person reads it, `name: value` joined with `; `: the fields a promptfoo
 * import adds beside the vars (its assertions, threshold, transform and cell) are left out.
 */
export function inputText(input: Record<string, unknown>): string {
  return Object.entries(input)
    .filter(([key]) => !PROMPTFOO_RESERVED_FIELDS.includes(key))
    .map(([key, value]) => `${key}: ${typeof value === 'string' ? value : JSON.stringify(value)}`)
    .join('; ')
}

/** A short excerpt of a case's input fields (inputText). */
export function inputExcerpt(item: DatasetCase | undefined, max = 120): string {
  return item ? excerpt(inputText(item.input), max) : ''
}

/** A labelled case's expected verdict, score and reference; empty when it has none. */
export function expectedText(item: DatasetCase | undefined): string {
  const e = item?.expected
  if (!e) return ''
  return [
    e.verdict === undefined ? '' : e.verdict,
    e.score === undefined ? '' : `score ${e.score}`,
    e.reference === undefined ? '' : `reference: ${excerpt(e.reference, 120)}`,
  ].filter(Boolean).join(', ')
}
