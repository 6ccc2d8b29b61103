import { evaluationTypeDefinition } from '../evaluation-types/registry'
import type { EvaluationTypeDefinition } from '../evaluation-types/types'
import { defaultScorerRegistry } from '../scorers/registry'
import type { ResolvedEvaluatorConfig } from './config'
import { MetricRegistry } from './metrics/registry'

/** The built-in metrics alone, for callers that name no registry; an app loads custom metrics into its own. */
export const defaultMetricRegistry = new MetricRegistry()

/**
 * The models an evaluation calls: none for a type that uses no judge, a panel's judges, else the
 * type's own list (`models`: a metric suite's, the assertions' grader and embedding model) or the
 * config's `model`. The one rule behind the key check before a run, the offline check, the
 * fingerprint and the default-judge fallback. `prepared`: what the type's `prepare` made of this
 * config, asked only when the type's own list needs it.
 */
export function modelsCalled(definition: EvaluationTypeDefinition<any, any>, config: ResolvedEvaluatorConfig, prepared: () => unknown): string[] {
  if (!definition.usesJudge) return []
  if (config.judges) return [...config.judges]
  return definition.models ? definition.models(config, prepared()) : [config.model]
}

/**
 * Every model the evaluation will call (modelsCalled), for checking keys before a run. `prepared`:
 * what the type's `prepare` made of this config already, when the caller has it (it is not made again).
 */
export function evaluatorModels(config: ResolvedEvaluatorConfig, registry: MetricRegistry = defaultMetricRegistry, prepared?: { value: unknown }): string[] {
  const definition = evaluationTypeDefinition(config.evaluation_type)
  const prepare = () => (prepared ? prepared.value : definition.prepare?.(config, { metrics: registry, scorers: defaultScorerRegistry }))
  return modelsCalled(definition, config, prepare)
}
