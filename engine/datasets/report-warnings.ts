import type { CaseResult } from './schema'

/** A warning the runs' evaluators gave (their results' `warnings`), once, and how many case runs gave it. */
export interface ReportWarning {
  message: string
  case_runs: number
}

/** Each warning of the case runs once, in the order first given, with the number of runs that gave it. */
export function reportWarningsOf(results: readonly Pick<CaseResult, 'warnings'>[]): ReportWarning[] {
  const counts = new Map<string, number>()
  for (const r of results) for (const message of new Set(r.warnings ?? [])) counts.set(message, (counts.get(message) ?? 0) + 1)
  return [...counts].map(([message, runs]) => ({ message, case_runs: runs }))
}

/** A report's warning as one line: what it says, and how many of the report's case runs gave it. */
export function reportWarningLine(warning: ReportWarning, caseRuns: number): string {
  return `Warning: ${warning.message} (${warning.case_runs} of ${caseRuns} case run${caseRuns === 1 ? '' : 's'})`
}
