/** The pure pieces of the datasets pages: file formats, the per-case table's rows, filters and sorting, the histogram. */
import type { DatasetCase } from '../../engine/datasets/schema'
import type { DatasetReport, ReportResult } from '../../engine/datasets/report'

export type { DatasetCase, DatasetReport, ReportResult }

export const datasetFormats = ['csv', 'jsonl', 'json', 'yaml'] as const
export type DatasetFormat = (typeof datasetFormats)[number]

/** The format a file's name says, or null. */
export function formatOfFileName(name: string): DatasetFormat | null {
  const ext = /\.([a-z]+)$/i.exec(name)?.[1]?.toLowerCase()
  if (ext === 'yml') return 'yaml'
  return (datasetFormats as readonly string[]).includes(ext ?? '') ? ext as DatasetFormat : null
}

/** The format pasted text looks like: JSON when it opens with [ or { and is one value, JSONL when each line is one, YAML or CSV otherwise. */
export function guessFormat(text: string): DatasetFormat {
  const trimmed = text.trim()
  if (/^[[{]/.test(trimmed)) {
    try {
      JSON.parse(trimmed)
      return 'json'
    }
    catch {
      return 'jsonl'
    }
  }
  const first = trimmed.split('\n', 1)[0] ?? ''
  if (/^(-\s|name:|cases:)/.test(first)) return 'yaml'
  return 'csv'
}

/** The server's message for a refused request (it names the line and the field), else the error's own. */
export function apiMessage(error: unknown): string {
  const data = (error as { data?: { message?: string } }).data
  return data?.message ?? (error as Error).message ?? String(error)
}

export type CaseFilter = 'all' | 'failed' | 'errored' | 'regressed' | 'flaky'
export type CaseSortKey = 'case_id' | 'status' | 'verdict' | 'score' | 'latency_ms' | 'delta'

/** A row of the per-case table: one run of one case, with what the baseline says of the case. */
export interface CaseRow extends ReportResult {
  /** failed: its verdict is not pass; the case's outcome decides `regressed` and `flaky`. */
  flaky: boolean
  regressed: boolean
  delta: number | null
}

/** The report's results as table rows, marked from its flaky list and a comparison's regressions and deltas. */
type Against = { regressions: string[], score_deltas: Array<{ case_id: string, delta: number }> }
export function caseRows(report: DatasetReport, comparison?: Against | null): CaseRow[] {
  const flaky = new Set(report.flaky)
  const against = comparison ?? report.baseline
  const regressed = new Set(against?.regressions ?? [])
  const deltas = new Map((against?.score_deltas ?? []).map(d => [d.case_id, d.delta]))
  return report.results.map(r => ({ ...r, flaky: flaky.has(r.case_id), regressed: regressed.has(r.case_id), delta: deltas.get(r.case_id) ?? null }))
}

const matches: Record<CaseFilter, (row: CaseRow) => boolean> = {
  all: () => true,
  failed: row => row.status === 'succeeded' && row.verdict !== 'pass',
  errored: row => row.status === 'errored',
  regressed: row => row.regressed,
  flaky: row => row.flaky,
}

/** How many rows each filter keeps, in one pass. */
export function filterCounts(rows: readonly CaseRow[]): Record<CaseFilter, number> {
  const counts: Record<CaseFilter, number> = { all: rows.length, failed: 0, errored: 0, regressed: 0, flaky: 0 }
  for (const row of rows) for (const f of ['failed', 'errored', 'regressed', 'flaky'] as const) if (matches[f](row)) counts[f]++
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
