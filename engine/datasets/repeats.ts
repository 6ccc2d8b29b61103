/**
 * What a dataset run's repeats say of its judge and its workflow: whether every repeat of a case
 * passed (pass^N) or any one did (pass@N), how far a case's scores spread, and how many cases
 * gave both verdicts. Each repeat is a real call (a run with repeats never reads the response
 * cache), so the spread is the workflow's and the judge's, not the cache's.
 *
 * - A case's N is the number of its runs that succeeded (each ran `repeat` times unless the run
 *   was cancelled). Errored cases are left out, as for the pass rate: they were not judged.
 * - pass_all_repeats (pass^N) = cases whose every run passed / judged cases; by the case rule
 *   (a case passes only when all its runs pass) it equals pass_rate.
 * - pass_any_repeat (pass@N) = cases with at least one passing run / judged cases. Each result of
 *   a judged case that ran more than once carries its case's pass_all_repeats and pass_any_repeat
 *   (true or false).
 * - A case's score_sd is the sample standard deviation (n − 1) of its runs' scores, score_min and
 *   score_max their range; present on the case's results when two or more of its runs have a score.
 * - flaky share = flaky cases / cases with two or more succeeded runs (only those could be flaky);
 *   null when there is none, so a `max_flaky` gate with nothing to measure fails.
 */
import type { CaseRun, CaseSummary } from './outcomes'
import { sampleSd } from '../evaluator/arithmetic'
import { round4 } from './stats'

export interface ScoreSpread {
  score_sd: number
  score_min: number
  score_max: number
}

export interface RepeatFigures {
  pass_all_repeats: number | null
  pass_any_repeat: number | null
  /** Unrounded, for the `max_flaky` gate. */
  flaky_share: number | null
  /** The spread of each case that has one, by id. */
  spreads: Map<string, ScoreSpread>
  /** Each judged case that ran more than once: whether every repeat passed (pass^N) and whether one did (pass@N). */
  perCase: Map<string, { pass_all_repeats: boolean, pass_any_repeat: boolean }>
  /** Some case ran more than once: the report then carries the repeat figures. */
  repeated: boolean
}

/** The sample standard deviation and range of two or more scores (null under two), rounded to 4 decimals. */
export function scoreSpread(scores: readonly number[]): ScoreSpread | null {
  if (scores.length < 2) return null
  return { score_sd: round4(sampleSd(scores)), score_min: round4(Math.min(...scores)), score_max: round4(Math.max(...scores)) }
}

/** The repeat figures of a run's case summaries (see the head of this file). */
export function repeatFigures(summaries: ReadonlyMap<string, CaseSummary<CaseRun>>): RepeatFigures {
  let judged = 0, allPassed = 0, anyPassed = 0, repeatable = 0, flaky = 0
  let repeated = false
  const spreads = new Map<string, ScoreSpread>()
  const perCase = new Map<string, { pass_all_repeats: boolean, pass_any_repeat: boolean }>()
  for (const [id, summary] of summaries) {
    const succeeded = summary.runs.filter(r => r.status === 'succeeded')
    if (summary.runs.length > 1) repeated = true
    if (succeeded.length > 1) {
      repeatable++
      if (summary.flaky) flaky++
    }
    const spread = scoreSpread(succeeded.flatMap(r => (typeof r.score === 'number' ? [r.score] : [])))
    if (spread) spreads.set(id, spread)
    if (summary.outcome === 'errored') continue
    judged++
    const all = summary.outcome === 'passed'
    const any = succeeded.some(r => r.verdict === 'pass')
    if (all) allPassed++
    if (any) anyPassed++
    if (summary.runs.length > 1) perCase.set(id, { pass_all_repeats: all, pass_any_repeat: any })
  }
  return {
    pass_all_repeats: judged ? round4(allPassed / judged) : null,
    pass_any_repeat: judged ? round4(anyPassed / judged) : null,
    flaky_share: repeatable ? flaky / repeatable : null,
    spreads,
    perCase,
    repeated,
  }
}
