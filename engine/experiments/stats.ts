/**
 * The statistics that score prompt variants: run scores, means and spreads per document, category
 * rates, regressions. Pure functions; every one is pinned by tests with hand-computed numbers.
 */
import { JudgeflowError } from '../errors'
import { mean, sampleSd } from '../evaluator/arithmetic'
import { MARKS, type Judgment, type Mark, type Problem, type TestDocument } from './schema'

/** Bonuses counted per run at most; more are listed but add nothing. */
export const BONUS_CAP = 5
/** A category rate this much below the current best's is a regression. */
export const REGRESSION_DROP = 0.15
const EPSILON = 1e-9
const round = (x: number, digits = 4) => Math.round(x * 10 ** digits) / 10 ** digits

// The mean and sample SD are the evaluator's: one definition of each in the engine.
export { mean, sampleSd }

/** The judgment's mark of a problem of the answer key; × when it has none (a report refuses such a judgment first: parseJudgmentsFile). */
function markOf(judgment: Judgment, problemId: string): Mark {
  return Object.hasOwn(judgment.problems, problemId) ? judgment.problems[problemId]!.mark : '×'
}

/** run_score = Σ detection + 0.5 × bonuses (at most 5) − 0.5 × penalties. */
export function runScore(judgment: Judgment, problems: readonly Problem[]) {
  let detection = 0
  const counts = { '○': 0, '△': 0, '×': 0 }
  for (const problem of problems) {
    const mark = markOf(judgment, problem.id)
    counts[mark]++
    detection += MARKS[mark]
  }
  const bonusesCounted = Math.min(judgment.bonuses.length, BONUS_CAP)
  return {
    score: round(detection + 0.5 * bonusesCounted - 0.5 * judgment.penalties.length),
    detection, detected: counts['○'], partial: counts['△'], missed: counts['×'],
    bonuses: judgment.bonuses.length, bonuses_counted: bonusesCounted, penalties: judgment.penalties.length,
  }
}

/** Stability from the SD of the run scores: ≤ 0.5 high, ≤ 1.0 medium, else low. */
export function stabilityOf(sd: number): 'high' | 'medium' | 'low' {
  return sd <= 0.5 + EPSILON ? 'high' : sd <= 1.0 + EPSILON ? 'medium' : 'low'
}

/**
 * category_rate = (Σ○ + 0.5 × Σ△) / (category_questions × total_runs): the mean mark of the
 * category's problems over every judged run of every document.
 */
export function categoryRates(judgments: readonly Judgment[], documents: readonly TestDocument[]): Record<string, number> {
  const sums = new Map<string, { score: number, count: number }>()
  for (const judgment of judgments) {
    const document = documents.find(d => d.id === judgment.document)
    for (const problem of document?.problems ?? []) {
      const entry = sums.get(problem.category) ?? { score: 0, count: 0 }
      entry.score += MARKS[markOf(judgment, problem.id)]
      entry.count++
      sums.set(problem.category, entry)
    }
  }
  return Object.fromEntries([...sums].map(([category, { score, count }]) => [category, round(score / count)]))
}

/** balance = min(category rates) / max(category rates); null when every rate is 0. */
export function balanceOf(rates: Record<string, number>): number | null {
  const values = Object.values(rates)
  if (!values.length) return null
  const max = Math.max(...values)
  return max === 0 ? null : round(Math.min(...values) / max)
}

/** Categories whose rate fell by at least 0.15 from the current best's. */
export function regressionsOf(best: Record<string, number>, variant: Record<string, number>) {
  return Object.keys(best)
    .map((category) => {
      const rate = Object.hasOwn(variant, category) ? variant[category]! : 0
      return { category, best_rate: best[category]!, variant_rate: rate, drop: round(best[category]! - rate) }
    })
    .filter(r => r.drop >= REGRESSION_DROP - EPSILON)
}

/** The summary of one variant's runs: scores, their mean and spread, documents, categories. */
export function summarizeVariant(judgments: readonly Judgment[], documents: readonly TestDocument[]) {
  const runs = judgments.map((judgment) => {
    const document = documents.find(d => d.id === judgment.document)
    if (!document) throw new JudgeflowError('INVALID_INPUT', `judgment of variant "${judgment.variant}" run ${judgment.run}: document "${judgment.document}" is not among the documents (${documents.map(d => d.id).join(', ')})`)
    return { document: judgment.document, run: judgment.run, ...runScore(judgment, document.problems) }
  })
  const scores = runs.map(r => r.score)
  const scoresOf = (documentId: string) => runs.filter(r => r.document === documentId).map(r => r.score)
  const docMeans = Object.fromEntries(documents.filter(d => runs.some(r => r.document === d.id)).map(d => [d.id, round(mean(scoresOf(d.id)))]))
  const means = Object.values(docMeans)
  const rates = categoryRates(judgments, documents)
  const overallSd = round(sampleSd(scores))
  return {
    runs,
    overall_mean: round(mean(scores)),
    overall_sd: overallSd,
    stability: stabilityOf(overallSd),
    doc_means: docMeans,
    /** |doc1_mean − doc2_mean|; with more than two documents, the largest minus the smallest. */
    cross_doc_gap: means.length ? round(Math.max(...means) - Math.min(...means)) : 0,
    category_rates: rates,
    balance: balanceOf(rates),
  }
}
export type VariantSummary = ReturnType<typeof summarizeVariant>
