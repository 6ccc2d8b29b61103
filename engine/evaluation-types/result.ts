import type { EvaluatorResult } from '../schema/evaluator'
import { isHeuristic, type EvaluationContext } from '../evaluator/context'

/** The fields every evaluation type reports the same way. */
export function baseResult(ctx: EvaluationContext): Pick<EvaluatorResult, 'evaluation_type' | 'pass_threshold' | 'judge' | 'usage' | 'latency_ms'> {
  const { stats, config } = ctx
  return {
    evaluation_type: config.evaluation_type,
    pass_threshold: config.pass_threshold,
    judge: { model: config.model, heuristic: isHeuristic(config.model), calls: stats.calls, cached_calls: stats.cached_calls, reasks: stats.reasks },
    usage: { ...stats.usage },
    latency_ms: 0,
  }
}
