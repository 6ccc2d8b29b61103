import type { EvaluatorResult } from '../../schema/evaluator'
import type { ScorerConfig } from '../../schema/scorers'
import { runScorers, SCORER_PRESETS } from '../../scorers'
import type { ScorerRegistry } from '../../scorers/registry'
import { confidenceOf, marginOf } from '../../evaluator/arithmetic'
import type { ResolvedEvaluatorConfig } from '../../evaluator/config'
import { invalidConfig, type ConfigProblem } from '../checks'
import type { EvaluatorConfigOf } from '../config-schema'
import type { EvaluationContext } from '../../evaluator/context'
import { baseResult } from '../result'

/** The scorers to run: a preset by name, or the list; each type must be registered. */
export function resolveScorers(config: ResolvedEvaluatorConfig<EvaluatorConfigOf<'scorers'>>, registry: ScorerRegistry): ScorerConfig[] {
  const list = config.preset ? SCORER_PRESETS[config.preset] : config.scorers ?? []
  const problems: ConfigProblem[] = []
  list.forEach((scorer, i) => {
    if (!registry.get(scorer.type)) problems.push({ path: `scorers[${i}].type`, message: `unknown scorer "${scorer.type}"; available scorers: ${registry.types().join(', ')}` })
  })
  if (list.length && list.every(s => s.weight === 0)) problems.push({ path: 'scorers', message: 'at least one scorer needs a weight above 0' })
  if (problems.length) throw invalidConfig(problems)
  return list
}

/** Deterministic scorers: `passed` only when every scorer reaches its threshold; the score is their weighted mean. */
export function evaluateScorers(ctx: EvaluationContext, scorers: ScorerConfig[], registry: ScorerRegistry): EvaluatorResult {
  const { actual, expected, original } = ctx.input
  const { results, overall, passed } = runScorers(scorers, { actual, expected, original }, registry)
  const criteria_scores: Record<string, number> = {}
  for (const r of results) {
    let key = r.type
    for (let n = 2; key in criteria_scores; n++) key = `${r.type}#${n}`
    criteria_scores[key] = r.score
  }
  const failing = results.filter(r => !r.passed)
  const tightest = Math.min(...results.map(r => marginOf(r.score, r.threshold)))
  const factors = { agreement: 1, margin: Number.isFinite(tightest) ? tightest : 1, validity: 1, judge: 1 }
  return {
    ...baseResult(ctx),
    passed,
    overall_score: overall,
    criteria_scores,
    criteria_reasons: Object.fromEntries(results.map(r => [r.type, `${r.score} against a threshold of ${r.threshold}`])),
    feedback: ctx.config.include_feedback
      ? failing.length ? `Below threshold: ${failing.map(r => `${r.type} ${r.score} < ${r.threshold}`).join(', ')}.` : 'Every scorer reached its threshold.'
      : '',
    suggestions: [],
    grade: null,
    confidence: confidenceOf(factors),
    confidence_factors: factors,
    scorer_results: results,
  }
}
