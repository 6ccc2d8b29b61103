/** The pure pieces of the datasets pages: file formats, the per-case table's rows, filters and sorting, the histogram. */
import type { OutcomeChange } from '../../engine/datasets/baseline'
import { excerpt, firstFailedCheck, inputText } from '../../engine/datasets/case-reasons'
import type { DatasetCase, Verdict } from '../../engine/datasets/schema'
import type { DatasetReport, ReportResult } from '../../engine/datasets/report'
import { kappaText, kappaUncertainty, type KappaMeasure } from '../../engine/datasets/kappa-interval'
import { parseTypedJson } from '../../engine/text/safe-json'

export type { DatasetCase, DatasetReport, ReportResult }

export const datasetFormats = ['csv', 'jsonl', 'json', 'yaml'] as const
export type DatasetFormat = (typeof datasetFormats)[number]

/** The format a file's name says, or null. */
export function formatOfFileName(name: string): DatasetFormat | null {
  const ext = /\.([a-z]+)$/i.exec(name)?.[1]?.toLowerCase()
  if (ext === 'yml') return 'yaml'
  return (datasetFormats as readonly string[]).includes(ext ?? '') ? ext as DatasetFormat : null
}

/**
 * A first line only YAML opens with: a comment, a directive or document marker, a list item
 * (`- …` or a bare `-`), or a mapping key (`key:` before any comma, its value after a space or
 * on the next lines). A CSV header names its columns between commas, so a colon inside one of
 * its cells comes after a comma or inside quotes that close before the next cell.
 */
const YAML_OPENING = /^(?:#|%|---(?:\s|$)|-(?:\s|$)|(?:"[^"]*"|'[^']*'|[^\s,"'#:][^,"':]*):(?:\s|$))/

/** The format pasted text looks like: JSON when it opens with [ or { and is one value, JSONL when each line is one, YAML or CSV otherwise. */
export function guessFormat(text: string): DatasetFormat {
  const trimmed = text.trim()
  if (/^[[{]/.test(trimmed)) {
    try {
      parseTypedJson(trimmed)
      return 'json'
    }
    catch {
      return 'jsonl'
    }
  }
  const first = trimmed.split(/\r?\n/, 1)[0] ?? ''
  return YAML_OPENING.test(first) ? 'yaml' : 'csv'
}

/** The server's message for a refused request (it names the line and the field), else the error's own. */
export function apiMessage(error: unknown): string {
  const data = (error as { data?: { message?: string } }).data
  return data?.message ?? (error as Error).message ?? String(error)
}

export type CaseFilter = 'all' | 'failed' | 'errored' | 'regressed' | 'disagrees' | 'flaky'
export type CaseSortKey = 'case_id' | 'status' | 'expected' | 'verdict' | 'score' | 'latency_ms' | 'delta'
export const CASE_FILTERS: readonly CaseFilter[] = ['all', 'failed', 'errored', 'regressed', 'disagrees', 'flaky']

/** A row of the per-case table: one run of one case, with its case's input and label, and what the baseline says of the case. */
export interface CaseRow extends ReportResult {
  /** failed: its verdict is not pass; the case's outcome decides `regressed` and `flaky`. */
  flaky: boolean
  regressed: boolean
  delta: number | null
  /** The case's input as a person reads it (a promptfoo test's vars, not its assertions); '' until the cases are loaded. */
  input: string
  /** The case's `expected.verdict`; null when it has none. */
  expected: Verdict | null
  /** This run was judged, and not with the verdict the case's label expects. */
  disagrees: boolean
  /** A case whose outcome changed against the baseline: whether it now agrees with its label (null without one). */
  change: OutcomeChange['label']
  /** Why this verdict: the judge's reason, else the first check that failed, else the error. */
  why: string
}

/** A row's input is cut past this many characters; its case on the dataset page holds it whole. */
const ROW_INPUT_LIMIT = 2000

/**
 * Why a run got its verdict, in a few words: the judge's reason, else the first failed check, else
 * the error; a judge panel's rule ("passed: 2 of 3 judges passed (majority), though …") first.
 */
export function whyOf(run: ReportResult): string {
  if (run.status === 'errored') return run.error ?? 'errored'
  const rule = run.panel?.verdict_rule ? `judge panel ${run.panel.verdict_rule}` : ''
  const check = firstFailedCheck(run)
  const reason = run.reason || (check ? (check.reason ? `${check.name}: ${check.reason}` : check.name) : '')
  return rule && reason ? `${rule}. ${reason}` : rule || reason
}

/** The report's results as table rows, marked from its flaky list, the cases' labels and a comparison's changes and deltas. */
type Against = { regressions: string[], score_deltas: Array<{ case_id: string, delta: number }>, changes?: OutcomeChange[] }
export function caseRows(report: DatasetReport, comparison?: Against | null, cases?: readonly DatasetCase[]): CaseRow[] {
  const flaky = new Set(report.flaky)
  const against = comparison ?? report.baseline
  const regressed = new Set(against?.regressions ?? [])
  const deltas = new Map((against?.score_deltas ?? []).map(d => [d.case_id, d.delta]))
  const changes = new Map((against?.changes ?? []).map(c => [c.case_id, c.label]))
  const byId = new Map((cases ?? []).map(c => [c.id, c]))
  return report.results.map((r) => {
    const item = byId.get(r.case_id)
    const expected = item?.expected?.verdict ?? null
    return {
      ...r,
      flaky: flaky.has(r.case_id),
      regressed: regressed.has(r.case_id),
      delta: deltas.get(r.case_id) ?? null,
      input: item ? excerpt(inputText(item.input), ROW_INPUT_LIMIT) : '',
      expected,
      disagrees: expected !== null && r.status === 'succeeded' && r.verdict !== null && r.verdict !== expected,
      change: changes.get(r.case_id) ?? null,
      why: whyOf(r),
    }
  })
}

const matches: Record<Exclude<CaseFilter, 'all'>, (row: CaseRow) => boolean> = {
  failed: row => row.status === 'succeeded' && row.verdict !== 'pass',
  errored: row => row.status === 'errored',
  regressed: row => row.regressed,
  disagrees: row => row.disagrees,
  flaky: row => row.flaky,
}
const counted = Object.keys(matches) as Array<keyof typeof matches>

/** How many rows each filter keeps, in one pass. */
export function filterCounts(rows: readonly CaseRow[]): Record<CaseFilter, number> {
  const counts: Record<CaseFilter, number> = { all: rows.length, failed: 0, errored: 0, regressed: 0, disagrees: 0, flaky: 0 }
  for (const row of rows) for (const f of counted) if (matches[f](row)) counts[f]++
  return counts
}

// One collator for every comparison: localeCompare with options builds one per call, 25 times slower over 10,000 rows.
const naturalOrder = new Intl.Collator(undefined, { numeric: true })

/** The rows a filter keeps, sorted by a column (nulls last whichever the direction); the input is left as it is. */
export function filterAndSort(rows: readonly CaseRow[], filter: CaseFilter, key: CaseSortKey, descending: boolean): CaseRow[] {
  const kept = filter === 'all' ? [...rows] : rows.filter(matches[filter])
  const sign = descending ? -1 : 1
  return kept.sort((a, b) => {
    const x = a[key]
    const y = b[key]
    if (x === y) return 0
    if (x === null || x === undefined) return 1
    if (y === null || y === undefined) return -1
    return (typeof x === 'number' && typeof y === 'number' ? x - y : naturalOrder.compare(String(x), String(y))) * sign
  })
}

/** Counts of the case scores in ten bins [0, 0.1), …, [0.9, 1.0], split by the run's verdict. */
export function scoreHistogram(results: readonly ReportResult[]): { pass: number[], fail: number[] } {
  const pass = Array<number>(10).fill(0)
  const fail = Array<number>(10).fill(0)
  for (const r of results) {
    if (r.status !== 'succeeded' || r.score === null) continue
    const bin = Math.min(9, Math.max(0, Math.floor(r.score * 10)))
    ;(r.verdict === 'pass' ? pass : fail)[bin]!++
  }
  return { pass, fail }
}

export const percent = (value: number | null | undefined, digits = 1) => (value === null || value === undefined ? '—' : `${(value * 100).toFixed(digits)} %`)
export const fixed = (value: number | null | undefined, digits = 2) => (value === null || value === undefined ? '—' : value.toFixed(digits))
/** An earlier dataset run as a choice of baseline: when it ran, on which version. */
export const runChoice = (r: { id: string, created_at: string | number, dataset_version: number }) =>
  ({ value: r.id, label: `run of ${new Date(r.created_at).toLocaleString()} (v${r.dataset_version})` })

/**
 * How a κ against people's labels is shown (the agreement panel, a run's calibration): its figure
 * with its interval and, when it cannot tell (engine/datasets/kappa-interval.ts), why, in the
 * `uncertain` tone — never in the tone of a tight one.
 */
export function kappaView(m: KappaMeasure): { text: string, uncertain: string | null, tone: 'tight' | 'uncertain' } {
  const uncertain = kappaUncertainty(m)
  return { text: kappaText(m.kappa, m.kappa_ci), uncertain, tone: uncertain ? 'uncertain' : 'tight' }
}
