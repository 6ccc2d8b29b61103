/**
 * A judge panel: the same evaluation asked of several judge models at once, their verdicts
 * combined. `majority`: the panel passes when more than half its judges pass (a tie fails);
 * `mean`: the panel passes when the mean of the judges' overall scores reaches the threshold.
 * Either way the panel's scores are the judges' means, and its agreement, the share of pairs of
 * judges with the same verdict, lowers the confidence. `verdict_rule` says the rule and the figure
 * it did not use, and the feedback never praises what the means call weak (panel-verdict.ts). A rubric's grade is the band of the panel's
 * mean score; a metric suite's metrics are each the judges' mean.
 *
 * A comparison: each judge ranks the candidates in both orders (its own position consistency);
 * the panel's ranking is by each candidate's mean score over the judges. `majority`: the winner is
 * the candidate more than half the judges named winner, else none (a tie); `mean`: the top of the
 * panel's ranking unless it ties. The agreement is the share of pairs of judges that named the
 * same winner (or both none), and the position consistency the judges' mean.
 */
import type { EvaluatorResult, PanelAggregate, PanelResult, RankedCandidate } from '../schema/evaluator'
import type { StructuredOutput } from '../providers/types'
import { candidatesOf, TIE } from '../evaluation-types/comparison/evaluate'
import { confidenceOf, gradeFor, marginOf, mean, passes } from './arithmetic'
import type { EvaluationContext } from './context'
import { newStats, type JudgeStats } from './judge'
import { panelFeedback, panelVerdictRule } from './panel-verdict'

export type { PanelAggregate, PanelResult }

/** The share of pairs with the same verdict (or the same winner). */
export function pairAgreement(verdicts: readonly unknown[]): number {
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
  if (results[0]!.ranking) return comparisonPanel(ctx, judges, aggregate, results)
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
    feedback: panelFeedback(voice, criteriaScores, threshold),
    grade: ctx.config.grades?.length ? gradeFor(overall, ctx.config.grades) : voice.grade,
    confidence: confidenceOf(factors),
    confidence_factors: factors,
    judge: { ...voice.judge, model: judges.join(', ') },
    ...(voice.metrics ? metricMeans(results, voice) : {}),
    panel: {
      aggregate,
      judges: results.map((r, i) => ({ model: judges[i]!, overall_score: r.overall_score, passed: r.passed })),
      agreement,
      verdict_rule: panelVerdictRule({ aggregate, verdicts, score: overall, threshold, passed }),
    },
  }
}

/** A metric suite's panel: each metric's score the judges' mean (0–100), its comment the panel's voice's. */
function metricMeans(results: readonly EvaluatorResult[], voice: EvaluatorResult): Pick<EvaluatorResult, 'metrics' | 'evaluation_result'> {
  const metrics = voice.metrics!.map(m => ({ ...m, score: round(mean(results.map(r => r.metrics!.find(x => x.metric_name === m.metric_name)!.score))) }))
  const overall = round(mean(results.map(r => r.evaluation_result!.overall_score)))
  return { metrics, evaluation_result: { metrics, overall_score: overall } }
}

function comparisonPanel(
  ctx: EvaluationContext, judges: readonly string[], aggregate: PanelAggregate, results: readonly EvaluatorResult[],
): EvaluatorResult & { panel: PanelResult } {
  const ids = results[0]!.ranking!.map(r => r.id)
  const entryOf = (result: EvaluatorResult, id: string) => result.ranking!.find(r => r.id === id)!
  const ranking: RankedCandidate[] = ids.map((id) => {
    const entries = results.map(r => entryOf(r, id))
    const names = Object.keys(entries[0]!.criteria_scores)
    return {
      id,
      rank: 0,
      overall_score: round(mean(entries.map(e => e.overall_score))),
      criteria_scores: Object.fromEntries(names.map(n => [n, round(mean(entries.map(e => e.criteria_scores[n] ?? 0)))])),
      // Judge after judge, each in its orders.
      scores_by_order: entries.flatMap(e => e.scores_by_order ?? []),
    }
  })
  const sorted = [...ranking].sort((a, b) => b.overall_score - a.overall_score)
  sorted.forEach((entry, i) => { entry.rank = i > 0 && sorted[i - 1]!.overall_score - entry.overall_score < TIE ? sorted[i - 1]!.rank : i + 1 })
  const top = sorted[0]!
  const winners = results.map(r => r.winner ?? null)
  let winner: string | null
  if (aggregate === 'majority') {
    const votes = new Map<string, number>()
    for (const w of winners) if (w !== null) votes.set(w, (votes.get(w) ?? 0) + 1)
    winner = [...votes].find(([, n]) => n * 2 > judges.length)?.[0] ?? null
  }
  else {
    winner = sorted[1] && sorted[1].rank === top.rank ? null : top.id
  }
  const best = winner === null ? top : sorted.find(r => r.id === winner)!
  const threshold = ctx.config.pass_threshold
  const verdicts = results.map(r => r.passed)
  const passed = aggregate === 'majority' ? panelPasses('majority', verdicts, 0, threshold) : passes(best.overall_score, threshold)
  const agreement = pairAgreement(winners)
  const consistency = round(mean(results.map(r => r.position_consistency ?? 1)))
  const factors = {
    agreement: round(agreement * consistency),
    margin: marginOf(best.overall_score, threshold),
    validity: round(mean(results.map(r => r.confidence_factors.validity))),
    judge: Math.min(...results.map(r => r.confidence_factors.judge)),
  }
  const voice = results.find(r => (r.winner ?? null) === winner) ?? results[0]!
  return {
    ...voice,
    passed,
    overall_score: best.overall_score,
    criteria_scores: best.criteria_scores,
    confidence: confidenceOf(factors),
    confidence_factors: factors,
    ranking: sorted,
    winner,
    best_output: candidatesOf(ctx as Parameters<typeof candidatesOf>[0], ctx.candidateIds).find(c => c.id === best.id)?.text ?? null,
    position_consistency: consistency,
    judge: { ...voice.judge, model: judges.join(', ') },
    panel: {
      aggregate,
      judges: results.map((r, i) => ({ model: judges[i]!, overall_score: r.overall_score, passed: r.passed, winner: r.winner ?? null })),
      agreement,
      verdict_rule: panelVerdictRule({ aggregate, verdicts, score: best.overall_score, threshold, passed, scoreName: `${winner === null ? 'the top candidate' : winner}'s mean score` }),
    },
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
    into.cost_usd += part.cost_usd
    for (const model of part.unpriced) if (!into.unpriced.includes(model)) into.unpriced.push(model)
    if (part.structured && (!into.structured || HELD.indexOf(part.structured) > HELD.indexOf(into.structured))) into.structured = part.structured
  }
}

const round = (value: number) => Math.round(value * 1000) / 1000
