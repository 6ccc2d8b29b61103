/**
 * A dataset report's results as files a spreadsheet or a script reads: CSV, one row per run of a
 * case (its first failed check, the reason and an excerpt of the output beside its figures; no
 * cell opens a formula, see csv-cells.ts), and JSONL, one result object per line as the JSON
 * report holds it. A case a budget or a cancel left unrun has a row (a line) of its own, status
 * `not_run`, saying why: it is never missing without a word.
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
  const unrun = (report.not_run ?? []).map(id => [neutraliseCell(id), '', NOT_RUN, '', '', '', '', neutraliseCell(notRunReason(report)), ''])
  return stringifyCsv([[...RESULTS_CSV_COLUMNS], ...rows, ...unrun])
}

export function datasetResultsToJsonl(report: DatasetReport): string {
  const unrun = (report.not_run ?? []).map(id => ({ case_id: id, status: NOT_RUN, reason: notRunReason(report) }))
  return [...report.results, ...unrun].map(r => `${JSON.stringify(r)}\n`).join('')
}

const NOT_RUN = 'not_run'

/** Why the report's cases in `not_run` did not run: the budget when its gate failed, else a budget or a cancel. */
export function notRunReason(report: Pick<DatasetReport, 'gates' | 'cost_usd'>): string {
  const budget = report.gates.find(g => g.gate === 'max_cost_usd')
  if (budget && !budget.passed) return `not run: the budget of $${budget.required} was reached (spent: ${report.cost_usd === null ? 'not known' : `$${report.cost_usd}`})`
  return 'not run: the run was cancelled or stopped before this case started'
}
