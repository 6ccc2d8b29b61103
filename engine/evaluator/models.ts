import { evaluationTypeDefinition } from '../evaluation-types/registry'
import { defaultScorerRegistry } from '../scorers/registry'
import type { ResolvedEvaluatorConfig } from './config'
import { MetricRegistry } from './metrics/registry'

/** The built-in metrics alone, for callers that name no registry; an app loads custom metrics into its own. */
export const defaultMetricRegistry = new MetricRegistry()

/**
 * Every model the evaluation will call, for checking keys before a run. `prepared`: what the
 * type's `prepare` made of this config already, when the caller has it (it is not made again).
 */
export function evaluatorModels(config: ResolvedEvaluatorConfig, registry: MetricRegistry = defaultMetricRegistry, prepared?: { value: unknown }): string[] {
  const definition = evaluationTypeDefinition(config.evaluation_type)
  if (!definition.usesJudge) return []
  if (config.judges) return [...config.judges]
  if (!definition.models) return [config.model]
  return definition.models(config, prepared ? prepared.value : definition.prepare?.(config, { metrics: registry, scorers: defaultScorerRegistry }))
}
