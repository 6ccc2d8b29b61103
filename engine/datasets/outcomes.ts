/**
 * One outcome per case, whatever its `repeat`: errored when any of its runs errored, else failed
 * when any run's verdict is not `pass`, else passed. Runs cut off by cancelling the dataset run
 * are left out: a case no other run has reported on has no outcome. The report and the progress
 * of a dataset run both count by this rule.
 */
import type { CaseResult, Verdict } from './schema'

export type CaseOutcome = 'passed' | 'failed' | 'errored'

/** What the summary reads of a run: a CaseResult, or a result row of an earlier report (nulls for absent fields). */
export type CaseRun = Pick<CaseResult, 'case_id' | 'repeat' | 'status'> & {
  verdict?: Verdict | null
  score?: number | null
  confidence?: number | null
  error?: string | null
}

export interface CaseSummary<R extends CaseRun = CaseResult> {
  outcome: CaseOutcome
  /** The case's judged verdict (passed ⇒ pass, failed ⇒ fail); null when errored. */
  verdict: Verdict | null
  /** The mean score of its runs that succeeded with a score; null when errored or none gave one. */
  score: number | null
  /** The mean `confidence` of those runs; null when errored or none gave one. */
  confidence: number | null
  /** Its succeeded runs' verdicts differ. */
  flaky: boolean
  /** The first error of its errored runs. */
  error: string | null
  /** Its runs, by repeat. */
  runs: R[]
}

interface Tally<R> {
  runs: R[]
  errored: boolean
  passes: number
  fails: number
  scoreSum: number
  scored: number
  confidenceSum: number
  confident: number
  error: string | null
}

/** Each case's summary by id, in the order of first appearance; one pass over the results. */
export function summarizeCases<R extends CaseRun>(results: readonly R[]): Map<string, CaseSummary<R>> {
  const tallies = new Map<string, Tally<R>>()
  for (const result of results) {
    if (result.status === 'cancelled') continue
    let tally = tallies.get(result.case_id)
    if (!tally) {
      tally = { runs: [], errored: false, passes: 0, fails: 0, scoreSum: 0, scored: 0, confidenceSum: 0, confident: 0, error: null }
      tallies.set(result.case_id, tally)
    }
    tally.runs.push(result)
    if (result.status === 'errored') {
      tally.errored = true
      tally.error ??= result.error ?? 'errored'
      continue
    }
    // A succeeded run without a verdict is not a pass.
    if (result.verdict === 'pass') tally.passes++
    else tally.fails++
    if (typeof result.score === 'number') { tally.scoreSum += result.score; tally.scored++ }
    if (typeof result.confidence === 'number') { tally.confidenceSum += result.confidence; tally.confident++ }
  }
  const summaries = new Map<string, CaseSummary<R>>()
  for (const [id, t] of tallies) {
    const outcome = outcomeOf(t)
    const judged = outcome !== 'errored'
    summaries.set(id, {
      outcome,
      verdict: judged ? (outcome === 'passed' ? 'pass' : 'fail') : null,
      score: judged && t.scored ? t.scoreSum / t.scored : null,
      confidence: judged && t.confident ? t.confidenceSum / t.confident : null,
      flaky: t.passes > 0 && t.fails > 0,
      error: t.error,
      runs: t.runs.length > 1 ? t.runs.sort((a, b) => a.repeat - b.repeat) : t.runs,
    })
  }
  return summaries
}

function outcomeOf(tally: { errored: boolean, fails: number }): CaseOutcome {
  return tally.errored ? 'errored' : tally.fails > 0 ? 'failed' : 'passed'
}

/** Cases by outcome as their runs come in, one at a time: always what `summarizeCases` gives for the runs so far. */
export class OutcomeCounts {
  passed = 0
  failed = 0
  errored = 0
  /** The runs counted (cancelled ones are not). */
  runs = 0
  /** The cancelled runs: not run (a budget spent) or cut off; no case's outcome counts them. */
  notRun = 0
  private readonly cases = new Map<string, { errored: boolean, fails: number }>()

  add(run: CaseRun): void {
    if (run.status === 'cancelled') {
      this.notRun++
      return
    }
    this.runs++
    let tally = this.cases.get(run.case_id)
    const before = tally ? outcomeOf(tally) : null
    if (!tally) this.cases.set(run.case_id, tally = { errored: false, fails: 0 })
    if (run.status === 'errored') tally.errored = true
    else if (run.verdict !== 'pass') tally.fails++
    const after = outcomeOf(tally)
    if (before === after) return
    if (before) this[before]--
    this[after]++
  }
}
