/**
 * A dataset run against an earlier one of the same dataset, case by case: regressions (passed
 * before, failed now), fixes (failed before, passed now), score deltas, and McNemar's exact test
 * on the cases judged in both (neither errored nor missing in either).
 */
import { summarizeCases, type CaseRun, type CaseSummary } from './outcomes'
import { mcnemarExact, round4 } from './stats'

export interface ScoreDelta {
  case_id: string
  before: number
  after: number
  delta: number
}

export interface BaselineComparison {
  /** The baseline: its dataset run id, else the label it was given. */
  report: string
  regressions: string[]
  fixes: string[]
  /** Two-sided; 1 when no case changed its outcome. */
  mcnemar_p: number
  /** The cases scored in both runs, in dataset order. */
  score_deltas: ScoreDelta[]
}

/** p-values keep 4 significant digits, so a small one does not round to 0. */
export const roundP = (p: number) => Number(p.toPrecision(4))

export function compareWithBaseline(
  current: ReadonlyMap<string, CaseSummary<CaseRun>>,
  caseIds: readonly string[],
  baselineResults: readonly CaseRun[],
  label: string,
): BaselineComparison {
  const before = summarizeCases(baselineResults)
  const regressions: string[] = []
  const fixes: string[] = []
  const scoreDeltas: ScoreDelta[] = []
  for (const id of caseIds) {
    const now = current.get(id)
    const then = before.get(id)
    if (!now || !then) continue
    if (then.outcome === 'passed' && now.outcome === 'failed') regressions.push(id)
    if (then.outcome === 'failed' && now.outcome === 'passed') fixes.push(id)
    if (then.score !== null && now.score !== null) {
      scoreDeltas.push({ case_id: id, before: round4(then.score), after: round4(now.score), delta: round4(now.score - then.score) })
    }
  }
  return {
    report: label,
    regressions,
    fixes,
    // The discordant pairs among the cases judged both times are exactly the regressions and the fixes.
    mcnemar_p: roundP(mcnemarExact(regressions.length, fixes.length)),
    score_deltas: scoreDeltas,
  }
}
