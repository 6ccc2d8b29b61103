/**
 * A dataset report's results as files a spreadsheet or a script reads: CSV, one row per run of a
 * case (its first failed check, the reason and an excerpt of the output beside its figures; no
 * cell opens a formula, see csv-cells.ts), and JSONL, one result object per line as the JSON
 * report holds it.
 */
import { stringify as stringifyCsv } from 'csv-stringify/sync'
import { excerpt, firstFailedCheck, runReason } from './case-reasons'
import { neutraliseCell } from './csv-cells'
import type { DatasetReport } from './report'

export const RESULTS_CSV_COLUMNS = ['case_id', 'repeat', 'status', 'verdict', 'score', 'latency_ms', 'failed_check', 'reason', 'output'] as const

export function datasetResultsToCsv(report: DatasetReport): string {
  const rows = report.results.map((r) => {
    const passed = r.status === 'succeeded' && r.verdict === 'pass'
    return [
      neutraliseCell(r.case_id),
      String(r.repeat),
      r.status,
      r.verdict ?? '',
      r.score === null ? '' : String(r.score),
      r.latency_ms === null ? '' : String(r.latency_ms),
      neutraliseCell(firstFailedCheck(r)?.name ?? ''),
      neutraliseCell(passed ? '' : runReason(r)),
      neutraliseCell(r.output === null ? '' : excerpt(r.output)),
    ]
  })
  return stringifyCsv([[...RESULTS_CSV_COLUMNS], ...rows])
}

export function datasetResultsToJsonl(report: DatasetReport): string {
  return report.results.map(r => `${JSON.stringify(r)}\n`).join('')
}
