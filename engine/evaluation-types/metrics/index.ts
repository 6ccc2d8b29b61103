import { checkHeuristicModel, isHeuristic } from '../../evaluator/context'
import { resolveMetrics, type ResolvedMetric } from '../../evaluator/metrics/resolve'
import type { EvaluatorConfigOf } from '../config-schema'
import { defineEvaluationType } from '../types'
import { evaluateMetrics } from './evaluate'
import { metricsChecks, metricsFields } from './schema'
import { metricsSpec } from './spec'

/** The models of the metrics a model judges (a metric computed in code calls none). */
const judgedBy = (metrics: readonly ResolvedMetric[]): string[] => metrics.filter(m => !m.definition.score).map(m => m.model)

/**
 * The metric suite: each metric its own judge call, model and settings (resolved in
 * engine/evaluator/metrics/resolve.ts); its built-in default judge is not the server's.
 */
export const metricsType = defineEvaluationType<EvaluatorConfigOf<'metrics'>, ResolvedMetric[]>({
  ...metricsSpec,
  fields: metricsFields,
  ...metricsChecks,
  prepare: (config, registries) => resolveMetrics(config, registries.metrics),
  checkModels(config, metrics) {
    // Each metric's key is checked as the suite runs, naming the metric and where its model came from.
    checkHeuristicModel(config.model)
    for (const metric of metrics) checkHeuristicModel(metric.model)
  },
  models: (_config, metrics) => judgedBy(metrics),
  // Its own list, not modelsCalled's: a panel over metrics that are all computed in code calls none of its judges.
  offline: (_config, metrics) => judgedBy(metrics).every(isHeuristic),
  // In a panel, each judge (the panelist's model) is asked for every metric a model judges.
  evaluate: (ctx, metrics) => evaluateMetrics(ctx, ctx.config.judges ? metrics.map(m => (m.definition.score ? m : { ...m, model: ctx.config.model!, model_source: 'config' })) : metrics),
})
