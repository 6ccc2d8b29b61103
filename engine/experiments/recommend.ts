/**
 * The regression-weighted difference, the recommendation table and convergence; and the whole
 * report from judgments alone.
 */
import { JudgeflowError } from '../errors'
import { formatPath } from '../graph/validate'
import { judgmentsFileProblems } from './check-judgments'
import { judgmentsFileSchema, type JudgmentsFile, type RoundSummary } from './schema'
import { regressionsOf, summarizeVariant, type VariantSummary } from './stats'

const round = (x: number) => Math.round(x * 10000) / 10000
/** Three rounds in a row improving by less than this may mean the prompt has converged. */
export const CONVERGENCE_STEP = 0.5
export const CONVERGENCE_ROUNDS = 3

export type Decision = 'variant' | 'current_best'

export interface Comparison {
  variant: string
  raw_mean_diff: number
  regressions: ReturnType<typeof regressionsOf>
  /** raw_mean_diff − 1.5 × Σ regressed drops */
  adjusted_diff: number
  decision: Decision
  /** The row of the table that decided, in words. */
  reason: string
}

/**
 * The recommendation table, boundaries inclusive as written: > 1.0 with a gap under 1.5 and no
 * regression → the variant; 0.5–1.0 (both included) without regression → the lower SD; < 0.5 → the
 * current best; any regression → the current best, with the regressions named. The one case the
 * table leaves open (> 1.0 but a gap of 1.5 or more) keeps the current best and says why.
 */
export function compareWithBest(variantId: string, variant: VariantSummary, best: VariantSummary): Comparison {
  const rawDiff = round(variant.overall_mean - best.overall_mean)
  const regressions = regressionsOf(best.category_rates, variant.category_rates)
  const adjusted = round(rawDiff - 1.5 * regressions.reduce((s, r) => s + r.drop, 0))
  const base = { variant: variantId, raw_mean_diff: rawDiff, regressions, adjusted_diff: adjusted }
  if (regressions.length) {
    const named = regressions.map(r => `${r.category} fell from ${r.best_rate} to ${r.variant_rate} (−${r.drop})`).join('; ')
    return { ...base, decision: 'current_best', reason: `Keep the current best: ${regressions.length} categor${regressions.length > 1 ? 'ies' : 'y'} regressed by 0.15 or more — ${named}.` }
  }
  if (adjusted > 1.0 && variant.cross_doc_gap < 1.5) {
    return { ...base, decision: 'variant', reason: `Adopt ${variantId}: it scores ${adjusted} points higher (over 1.0) with a gap between documents of ${variant.cross_doc_gap} (under 1.5) and no regression.` }
  }
  if (adjusted > 1.0) {
    return { ...base, decision: 'current_best', reason: `Keep the current best: ${variantId} scores ${adjusted} points higher, but its gap between documents is ${variant.cross_doc_gap} (1.5 or more), so the gain is not steady across documents; the rubric's table does not cover this case, and a change is only recommended when it holds on every document.` }
  }
  if (adjusted >= 0.5) {
    if (variant.overall_sd < best.overall_sd) return { ...base, decision: 'variant', reason: `Adopt ${variantId}: it scores ${adjusted} points higher (0.5–1.0) with no regression, and it is the steadier of the two (SD ${variant.overall_sd} against ${best.overall_sd}).` }
    return { ...base, decision: 'current_best', reason: `Keep the current best: ${variantId} scores ${adjusted} points higher (0.5–1.0) with no regression, but the current best is at least as steady (SD ${best.overall_sd} against ${variant.overall_sd}).` }
  }
  return { ...base, decision: 'current_best', reason: `Keep the current best: ${variantId} is ${adjusted} points ${adjusted < 0 ? 'lower' : 'higher'}, under the 0.5 that counts as an improvement.` }
}

/** Three rounds in a row improving by less than 0.5 → "may have converged". */
export function convergenceOf(improvements: readonly number[]): { state: 'may_have_converged' | 'continue', improvements: number[] } {
  const last = improvements.slice(-CONVERGENCE_ROUNDS)
  const converged = last.length === CONVERGENCE_ROUNDS && last.every(step => step < CONVERGENCE_STEP)
  return { state: converged ? 'may_have_converged' : 'continue', improvements: [...improvements] }
}

/** Faults named in a refusal's message at most; its details hold them all. */
const FAULTS_LISTED = 20

/**
 * A judgments file, or an error naming each bad field by its path (e.g. judgments[3].problems.P2.mark),
 * each output judged twice, each mark of a problem the document lacks and each judgment missing a mark.
 */
export function parseJudgmentsFile(raw: unknown, source = 'the judgments'): JudgmentsFile {
  const parsed = judgmentsFileSchema.safeParse(raw)
  if (!parsed.success) {
    const problems = parsed.error.issues.slice(0, 5).map(issue => `${formatPath(issue.path) || '(top level)'}: ${issue.message}`)
    throw new JudgeflowError('INVALID_INPUT', `${source} ${problems.length > 1 ? 'have problems' : 'have a problem'}: ${problems.join('; ')}`)
  }
  const faults = judgmentsFileProblems(parsed.data.judgments, parsed.data.documents)
  if (!faults.length) return parsed.data
  const more = faults.length > FAULTS_LISTED ? `; and ${faults.length - FAULTS_LISTED} more` : ''
  const listed = faults.slice(0, FAULTS_LISTED).map(f => `${f.path}: ${f.message}`).join('; ')
  throw new JudgeflowError('INVALID_INPUT', `${source} ${faults.length > 1 ? `have ${faults.length} problems` : 'have a problem'}, and no report is made from them: ${listed}${more}`, { details: faults })
}

/** The whole report of a round, from its judgments (and the history of earlier rounds). */
export function experimentReport(raw: unknown) {
  const file = parseJudgmentsFile(raw)
  const variantIds = [...new Set(file.judgments.map(j => j.variant))]
  if (!variantIds.includes(file.current_best)) throw new JudgeflowError('INVALID_INPUT', `current_best "${file.current_best}" has no judgments (variants judged: ${variantIds.join(', ')}): the report compares every variant with it`)
  const summaries = Object.fromEntries(variantIds.map(id => [id, summarizeVariant(file.judgments.filter(j => j.variant === id), file.documents)]))
  const best = summaries[file.current_best]!
  const comparisons = variantIds.filter(id => id !== file.current_best).map(id => compareWithBest(id, summaries[id]!, best))
  const adopted = comparisons.filter(c => c.decision === 'variant').sort((a, b) => b.adjusted_diff - a.adjusted_diff)[0]
  const improvement = adopted ? adopted.raw_mean_diff : 0
  const history: RoundSummary[] = file.history
  return {
    experiment: file.experiment,
    current_best: file.current_best,
    notes: [
      'overall_sd is the sample standard deviation (n − 1) of the run scores.',
      `Bonuses count at most ${5} per run; a category rate ${'0.15'} or more below the current best's is a regression.`,
    ],
    variants: summaries,
    comparisons,
    recommendation: {
      adopt: adopted?.variant ?? file.current_best,
      changes_best: !!adopted,
      reasons: comparisons.length ? comparisons.map(c => c.reason) : ['Only the current best was judged: nothing to compare.'],
    },
    convergence: convergenceOf([...history.map(h => h.improvement), improvement]),
    round: (history.at(-1)?.round ?? 0) + 1,
  }
}
export type ExperimentReport = ReturnType<typeof experimentReport>
