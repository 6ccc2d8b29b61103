import { z } from 'zod'
import { strictObject } from '../../schema/unknown-keys'
import { llmParams } from '../llm-params'
import type { ConfigOf } from '../shared-fields'
import type { EvaluationTypeChecks } from '../parts'

export const metricConfigSchema = strictObject({
  name: z.string().min(1, 'is required'),
  weight: z.number().min(0, 'must not be negative').max(1, 'must be at most 1').optional(),
  ...llmParams,
  model: z.string().min(1).optional(),
}, '[[metrics]]')
export type MetricConfig = z.infer<typeof metricConfigSchema>

export const llmDefaultSchema = strictObject({ ...llmParams, model: z.string().min(1).optional() }, '[llm_default]')
export type LlmDefault = z.infer<typeof llmDefaultSchema>

export const metricsFields = {
  /** Defaults for every metric. */
  llm_default: llmDefaultSchema.optional(),
  /** The metrics with weights (the three defaults when none is named anywhere). */
  metrics: z.array(metricConfigSchema).max(30).optional(),
  /** The model of every metric that names none, after `[llm_default]`. */
  default_model: z.string().min(1).optional(),
  default_provider: llmParams.provider,
  /** Only these metrics are called and weighted (the others' weights are left out and the rest rescaled). */
  enabled_metrics: z.array(z.string().min(1, 'is required')).min(1, 'needs at least one metric').max(30).optional(),
  /** Weights by metric name, for metrics that do not give their own. */
  metric_weights: z.record(z.string(), z.number().min(0, 'must not be negative').max(1, 'must be at most 1')).optional(),
}

export const metricsChecks: EvaluationTypeChecks<ConfigOf<'metrics', typeof metricsFields>> = {
  exclusive: ['default_model', 'default_provider', 'enabled_metrics', 'metric_weights', 'metrics'],
  resolve(config, problems) {
    if (config.model && config.default_model) problems.push({ path: 'default_model', message: 'give the model once: as model or as default_model, not both' })
    if (config.judges) panelModels(config, problems)
  },
}

/** A panel judges every LLM-judged metric with each of its judges: a model named elsewhere in the suite would be overruled, so it is refused. */
function panelModels(config: ConfigOf<'metrics', typeof metricsFields>, problems: Array<{ path: string, message: string }>): void {
  const message = 'a judge panel asks each of its judges for every metric: remove this, or name one judge in "model" instead of the panel'
  config.metrics?.forEach((m, i) => {
    if (m.model) problems.push({ path: `metrics[${i}].model`, message })
    if (m.provider) problems.push({ path: `metrics[${i}].provider`, message })
  })
  if (config.llm_default?.model) problems.push({ path: 'llm_default.model', message })
  if (config.llm_default?.provider) problems.push({ path: 'llm_default.provider', message })
  if (config.default_model) problems.push({ path: 'default_model', message })
  if (config.default_provider) problems.push({ path: 'default_provider', message })
}
