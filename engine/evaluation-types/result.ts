import type { EvaluatorResult } from '../schema/evaluator'
import { isHeuristic, type EvaluationContext } from '../evaluator/context'
import { costOfStats, type JudgeStats } from '../evaluator/judge'

/** The result's account of the judge: its model and what its calls came to. */
export function judgeOf(model: string, stats: JudgeStats): EvaluatorResult['judge'] {
  return {
    model, heuristic: isHeuristic(model), calls: stats.calls, cached_calls: stats.cached_calls, reasks: stats.reasks,
    repaired: stats.repaired, structured_output: stats.structured ?? null,
  }
}

/** The fields every evaluation type reports the same way. */
export function baseResult(ctx: EvaluationContext): Pick<EvaluatorResult, 'evaluation_type' | 'pass_threshold' | 'judge' | 'usage' | 'cost_usd' | 'latency_ms'> {
  const { stats, config } = ctx
  return {
    evaluation_type: config.evaluation_type,
    pass_threshold: config.pass_threshold,
    judge: judgeOf(config.model, stats),
    usage: { ...stats.usage },
    cost_usd: costOfStats(stats),
    latency_ms: 0,
  }
}
