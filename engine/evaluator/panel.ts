/**
 * A judge panel: the same evaluation asked of several judge models at once, their verdicts
 * combined. `majority`: the panel passes when more than half its judges pass (a tie fails);
 * `mean`: the panel passes when the mean of the judges' overall scores reaches the threshold.
 * Either way the panel's scores are the judges' means, and its agreement, the share of pairs of
 * judges with the same verdict, lowers the confidence.
 */
import type { EvaluatorResult, PanelAggregate, PanelResult } from '../schema/evaluator'
import type { StructuredOutput } from '../providers/types'
import { confidenceOf, marginOf } from './arithmetic'
import type { EvaluationContext } from './context'
import { newStats, type JudgeStats } from './judge'

export type { PanelAggregate, PanelResult }

/** The share of pairs with the same verdict. */
export function pairAgreement(verdicts: readonly boolean[]): number {
  let pairs = 0
  let agreeing = 0
  for (let i = 0; i < verdicts.length; i++) {
    for (let j = i + 1; j < verdicts.length; j++) {
      pairs++
      if (verdicts[i] === verdicts[j]) agreeing++
    }
  }
  return pairs ? round(agreeing / pairs) : 1
}

/** A panel passes by a strict majority of its judges' verdicts (a tie fails), or by its mean score. */
export function panelPasses(aggregate: PanelAggregate, verdicts: readonly boolean[], meanScore: number, threshold: number): boolean {
  if (aggregate === 'mean') return meanScore >= threshold
  return verdicts.filter(Boolean).length * 2 > verdicts.length
}

/** Structured output from best held to least: the panel reports its least held judge's. */
const HELD: readonly StructuredOutput[] = ['json_schema', 'tool', 'json_object', 'text']

/**
 * Runs `judge` once per model of the panel, in parallel, each with its own stats (summed into the
 * context's), and combines the results. One judge failing fails the evaluation: a panel short of
 * a judge is not the panel that was asked for.
 */
export async function judgeAsPanel(
  ctx: EvaluationContext,
  judges: readonly string[],
  aggregate: PanelAggregate,
  judge: (ctx: EvaluationContext) => Promise<EvaluatorResult>,
): Promise<EvaluatorResult & { panel: PanelResult }> {
  const stats: JudgeStats[] = judges.map(() => newStats())
  const results = await Promise.all(judges.map((model, i) => judge({ ...ctx, config: { ...ctx.config, model }, stats: stats[i]! })))
  addStats(ctx.stats, stats)
  const threshold = ctx.config.pass_threshold
  const verdicts = results.map(r => r.passed)
  const overall = round(mean(results.map(r => r.overall_score)))
  const passed = panelPasses(aggregate, verdicts, overall, threshold)
  const agreement = pairAgreement(verdicts)
  const names = Object.keys(results[0]!.criteria_scores)
  const criteriaScores = Object.fromEntries(names.map(name => [name, round(mean(results.map(r => r.criteria_scores[name] ?? 0)))]))
  const factors = {
    agreement: round(agreement * mean(results.map(r => r.confidence_factors.agreement))),
    margin: marginOf(overall, threshold),
    validity: round(mean(results.map(r => r.confidence_factors.validity))),
    judge: Math.min(...results.map(r => r.confidence_factors.judge)),
  }
  // The words (feedback, reasons) are those of the judge closest to the panel's score among those with its verdict.
  const voice = results
    .filter(r => r.passed === passed)
    .sort((a, b) => Math.abs(a.overall_score - overall) - Math.abs(b.overall_score - overall))[0] ?? results[0]!
  return {
    ...voice,
    passed,
    overall_score: overall,
    criteria_scores: criteriaScores,
    confidence: confidenceOf(factors),
    confidence_factors: factors,
    judge: { ...voice.judge, model: judges.join(', ') },
    panel: { aggregate, judges: results.map((r, i) => ({ model: judges[i]!, overall_score: r.overall_score, passed: r.passed })), agreement },
  }
}

function addStats(into: JudgeStats, parts: readonly JudgeStats[]): void {
  for (const part of parts) {
    into.calls += part.calls
    into.cached_calls += part.cached_calls
    into.reasks += part.reasks
    into.repaired += part.repaired
    into.usage.input_tokens += part.usage.input_tokens
    into.usage.output_tokens += part.usage.output_tokens
    if (part.structured && (!into.structured || HELD.indexOf(part.structured) > HELD.indexOf(into.structured))) into.structured = part.structured
  }
}

const mean = (values: readonly number[]) => values.reduce((sum, v) => sum + v, 0) / values.length
const round = (value: number) => Math.round(value * 1000) / 1000
