import { JudgeflowError } from '../../errors'
import type { EvaluatorResult, RankedCandidate } from '../../schema/evaluator'
import { HEURISTIC_CONFIDENCE_CAP } from '../../evaluator/heuristic'
import { clamp01, confidenceOf, marginOf, mean, passes, roundScore, weightedAverage } from '../../evaluator/arithmetic'
import { askJudge, mapLimit, type Validation } from '../../evaluator/judge'
import { comparisonAnswerCheck, comparisonJsonSchema, comparisonPrompt } from './prompts'
import { checkAnswer } from '../../evaluator/prompts'
import { isHeuristic, limitOf, type EvaluationContext } from '../../evaluator/context'
import { baseResult } from '../result'
import type { ResolvedEvaluatorConfig } from '../../evaluator/config'
import type { EvaluatorConfigOf } from '../config-schema'

export interface Candidate {
  id: string
  text: string
}

/** Scores closer than this count as a tie. */
export const TIE = 0.02

/** Candidates from the input, or from `compare_inputs` (rendered references), each with an id; how many is checked before (checkInputs). */
export function candidatesOf(ctx: EvaluationContext<ResolvedEvaluatorConfig<EvaluatorConfigOf<'comparison'>>>, ids: readonly string[] = []): Candidate[] {
  const raw = ctx.input.candidates ?? ctx.config.compare_inputs ?? []
  const candidates = raw.map((item, i): Candidate => {
    if (typeof item === 'string') return { id: ids[i] ?? `candidate_${i + 1}`, text: item }
    const object = item as { id?: unknown, text?: unknown }
    if (object && typeof object === 'object' && typeof object.text === 'string') return { id: typeof object.id === 'string' ? object.id : ids[i] ?? `candidate_${i + 1}`, text: object.text }
    throw new JudgeflowError('INVALID_INPUT', `Candidate ${i + 1} is ${JSON.stringify(item)?.slice(0, 60)}: a candidate must be a text or an object with a text.`)
  })
  // Ids name the candidates in the ranking, so they must be unique: a repeat gets #2, #3…
  const seen = new Map<string, number>()
  for (const candidate of candidates) {
    const n = (seen.get(candidate.id) ?? 0) + 1
    seen.set(candidate.id, n)
    if (n > 1) candidate.id = `${candidate.id}#${n}`
  }
  candidates.forEach((c, i) => { if (!c.text.trim()) throw new JudgeflowError('INVALID_INPUT', `Candidate "${c.id}" (${i + 1}) is empty.`) })
  return candidates
}

const labelOf = (position: number) => String.fromCharCode(65 + position)

type OrderVerdict = { scores: Record<string, Record<string, number>>, reasons: Record<string, string>, feedback: string, suggestions: string[] }

/** Checks the judge's JSON against the answer's schema: every candidate shown, each scored on every criterion from 0 to 1. */
function validateOrder(labels: readonly string[], names: readonly string[], includeFeedback: boolean) {
  const schema = comparisonAnswerCheck(labels, names, includeFeedback)
  return (json: unknown): Validation<OrderVerdict> => {
    const checked = checkAnswer(schema, json, (path, value) => {
      if (path[0] !== 'candidates') return undefined
      if (path.length === 2 && value === undefined) return `candidate ${String(path[1])} is missing`
      if (path.length === 4 && path[2] === 'criteria_scores') return `candidate ${String(path[1])}: criterion "${String(path[3])}" is ${JSON.stringify(value) ?? 'missing'}, not a number from 0.0 to 1.0`
      return undefined
    })
    if (!checked.ok) return checked
    const { candidates, feedback, suggestions } = checked.value
    const scores: OrderVerdict['scores'] = {}
    const reasons: Record<string, string> = {}
    for (const label of labels) {
      const entry = candidates[label]!
      scores[label] = Object.fromEntries(names.map(name => [name, entry.criteria_scores[name] as number]))
      reasons[label] = entry.reason ?? ''
    }
    return { ok: true, value: { scores, reasons, feedback: typeof feedback === 'string' ? feedback : '', suggestions: Array.isArray(suggestions) ? suggestions as string[] : [] } }
  }
}

/**
 * comparison: every candidate is judged in the given order and in the reversed order (position
 * bias shows as a preference that flips with the order). Scores are averaged over the orders;
 * pairs whose preference flips lower the position consistency, and a flipped top pair is a tie.
 */
export async function evaluateComparison(ctx: EvaluationContext, candidates: Candidate[]): Promise<EvaluatorResult> {
  const { config, input } = ctx
  const names = config.criteria!.map(c => c.name)
  const identity = candidates.map((_, i) => i)
  const orders = [identity, [...identity].reverse()]
  const heuristic = isHeuristic(config.model)
  const jobs = Array.from({ length: config.samples }, (_, sample) => orders.map(order => ({ sample, order }))).flat()
  const verdicts = await mapLimit(jobs, limitOf(config), async ({ order, sample }) => {
    const shown = order.map((index, position) => ({ label: labelOf(position), text: candidates[index]!.text }))
    const labels = shown.map(s => s.label)
    let verdict: OrderVerdict
    if (heuristic) {
      verdict = { scores: {}, reasons: {}, feedback: '', suggestions: [] }
      for (const s of shown) {
        verdict.scores[s.label] = Object.fromEntries(config.criteria!.map(c => [c.name, ctx.heuristic.scoreCriterion(c.name, c.description, s.text).score]))
        verdict.reasons[s.label] = 'scored from text features by the offline judge'
      }
    }
    else {
      verdict = await askJudge(ctx.providers, config.model, {
        prompt: comparisonPrompt({
          context: input.context, candidates: shown, criteria: config.criteria!, weights: config.weights, includeFeedback: config.include_feedback,
        }),
        jsonSchema: comparisonJsonSchema(labels, names, config.include_feedback),
        validate: validateOrder(labels, names, config.include_feedback),
        temperature: config.temperature, maxTokens: config.max_tokens, maxRetries: config.max_retries, cache: config.cache,
        cacheSalt: sample ? `sample ${sample}` : undefined, signal: ctx.signal, what: `the comparison (order ${labels.join('')})`,
      }, ctx.stats)
    }
    // Back from labels (positions) to candidate indexes.
    return { order, verdict, byCandidate: order.map((_, position) => verdict.scores[labelOf(position)]!) }
  })

  const overallByOrder = candidates.map((_, c) => verdicts.map(v => weightedAverage(v.byCandidate[v.order.indexOf(c)]!, config.weights)))
  const ranking: RankedCandidate[] = candidates.map((candidate, c) => ({
    id: candidate.id,
    rank: 0,
    overall_score: roundScore(mean(overallByOrder[c]!)),
    criteria_scores: Object.fromEntries(names.map(n => [n, roundScore(mean(verdicts.map(v => v.byCandidate[v.order.indexOf(c)]![n]!)))])),
    scores_by_order: overallByOrder[c]!,
  }))
  const consistency = positionConsistency(overallByOrder)
  const sorted = [...ranking].sort((a, b) => b.overall_score - a.overall_score)
  sorted.forEach((entry, i) => { entry.rank = i > 0 && sorted[i - 1]!.overall_score - entry.overall_score < TIE ? sorted[i - 1]!.rank : i + 1 })
  const [first, second] = sorted
  const overallOf = (id: string) => overallByOrder[candidates.findIndex(c => c.id === id)]!
  const topFlips = second ? flips(overallOf(first!.id), overallOf(second.id)) : false
  const tie = !!second && (second.rank === first!.rank || (topFlips && first!.overall_score - second.overall_score < 0.1))
  const best = first!
  const factors = {
    agreement: consistency,
    margin: marginOf(best.overall_score, config.pass_threshold),
    validity: clamp01(1 - 0.1 * ctx.stats.reasks),
    judge: heuristic ? HEURISTIC_CONFIDENCE_CAP : 1,
  }
  const feedbackParts = [...new Set(verdicts.map(v => v.verdict.feedback).filter(Boolean))]
  return {
    ...baseResult(ctx),
    passed: passes(best.overall_score, config.pass_threshold),
    overall_score: best.overall_score,
    criteria_scores: best.criteria_scores,
    criteria_reasons: Object.fromEntries(candidates.map((c, i) => [c.id, verdicts[0]!.verdict.reasons[labelOf(i)] ?? ''])),
    feedback: config.include_feedback ? feedbackParts.join(' ') || (tie ? 'The candidates are tied.' : `Candidate "${best.id}" is best.`) : '',
    suggestions: config.include_feedback ? [...new Set(verdicts.flatMap(v => v.verdict.suggestions))] : [],
    grade: null,
    confidence: confidenceOf(factors),
    confidence_factors: factors,
    ranking: sorted,
    winner: tie ? null : best.id,
    best_output: candidates.find(c => c.id === best.id)!.text,
    position_consistency: consistency,
  }
}

function flips(a: readonly number[], b: readonly number[]): boolean {
  const signs = a.map((score, i) => Math.sign(roundScore(score - b[i]!)))
  return signs.some(s => s !== signs[0])
}

/** Share of candidate pairs whose preference is the same in every order (1 = no position bias seen). */
export function positionConsistency(overallByOrder: readonly (readonly number[])[]): number {
  let pairs = 0
  let consistent = 0
  for (let i = 0; i < overallByOrder.length; i++) {
    for (let j = i + 1; j < overallByOrder.length; j++) {
      pairs++
      if (!flips(overallByOrder[i]!, overallByOrder[j]!)) consistent++
    }
  }
  return pairs ? roundScore(consistent / pairs) : 1
}
