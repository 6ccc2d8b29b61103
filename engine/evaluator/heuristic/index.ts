/**
 * `local:heuristic`: an offline, deterministic judge scored from text features.
 * It is a fallback, not an oracle: callers cap its confidence at HEURISTIC_CONFIDENCE_CAP.
 *
 * One judge serves one evaluation: each text is analysed once and each criterion scored once,
 * however many criteria, samples or comparison orders ask, so the work grows with the size of
 * the texts and not with criteria × samples.
 */
import { analyze } from './features'
import { findInjections, withoutInjections } from './injection'
import { criterionScore, feedbackFor, metricScore, type Evaluation, type HeuristicScore } from './rules'

export { findInjections, withoutInjections } from './injection'
export type { HeuristicScore } from './rules'

export interface HeuristicInput { content: string, context?: string, reference?: string }

export const HEURISTIC_CONFIDENCE_CAP = 0.5

export interface HeuristicJudge {
  scoreCriterion(name: string, description: string | undefined, content: string): HeuristicScore
  scoreMetric(name: string, content: string): { score: number, evaluator_comment: string }
  /** Feedback and at most four suggestions, from the weakest criteria first. `scores` may be 0..1 or 0..100. */
  feedback(content: string, scores: Record<string, number>): { feedback: string, suggestions: string[] }
}

const optional = (text: string | undefined) => (text?.trim() ? analyze(text) : undefined)

/** The judge of one evaluation, whose context and reference are fixed; contents (candidates) may vary. */
export function createHeuristicJudge(given: Omit<HeuristicInput, 'content'>): HeuristicJudge {
  let shared: Pick<Evaluation, 'context' | 'reference'> | undefined
  const evaluations = new Map<string, Evaluation>()
  const evaluationOf = (content: string): Evaluation => {
    let e = evaluations.get(content)
    if (!e) {
      shared ??= { context: optional(given.context), reference: optional(given.reference) }
      const injections = findInjections(content)
      const features = analyze(injections.length ? withoutInjections(content) : content)
      evaluations.set(content, e = { content: features, ...shared, injections, raw: new Map(), judged: new Map() })
    }
    return e
  }
  return {
    scoreCriterion: (name, description, content) => criterionScore(evaluationOf(content), name, description),
    scoreMetric: (name, content) => metricScore(evaluationOf(content), name),
    feedback: (content, scores) => feedbackFor(evaluationOf(content), scores),
  }
}

export function scoreCriterion(name: string, description: string | undefined, input: HeuristicInput): HeuristicScore {
  return createHeuristicJudge(input).scoreCriterion(name, description, input.content)
}

export function scoreMetric(name: string, input: HeuristicInput): { score: number, evaluator_comment: string } {
  return createHeuristicJudge(input).scoreMetric(name, input.content)
}

export function heuristicFeedback(input: HeuristicInput, scores: Record<string, number>): { feedback: string, suggestions: string[] } {
  return createHeuristicJudge(input).feedback(input.content, scores)
}
