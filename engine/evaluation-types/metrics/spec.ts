import { WARNINGS_FIELD } from '../outputs'
import { modelRefOf } from '../checks'
import { providerDefaultModel } from '../../providers/models'
import { defineEvaluationTypeSpec } from '../spec'
import { keyedBy, namesIn, objectOf, output } from '../../steps/outputs'

/** The metrics a suite calls when it names none. */
export const DEFAULT_METRICS = ['ClarityCoherence', 'Coverage', 'Relevance']

/** The metric suite's built-in default judge, not the server's default judge. */
export const METRIC_DEFAULT_MODEL = 'anthropic:claude-sonnet-4-5-20250929'

export const metricsSpec = defineEvaluationTypeSpec({
  type: 'metrics',
  label: 'Metric suite',
  description: 'A suite of metrics (0–100) with weights, one judge call each.',
  inputs: ['content', 'context', 'reference'],
  usesJudge: true,
  panel: true,
  judgesContent: true,
  sections: ['judge', 'metrics', 'threshold', 'feedback'],
  defaultModel: METRIC_DEFAULT_MODEL,
  // A provider named without a model stands for its default model; with none, the suite's own default.
  judgeDefault: (config) => {
    const text = (value: unknown) => (typeof value === 'string' && value ? value : undefined)
    const provider = text(config.default_provider) ?? text(config.provider)
    return { declared: modelRefOf(text(config.default_model), provider), field: 'default_model', fallback: (provider && providerDefaultModel(provider)) || METRIC_DEFAULT_MODEL }
  },
  order: 5,
  outputs: (config) => {
    const names = metricNames(config)
    const metric = objectOf({
      metric_name: output('string', 'the metric'),
      score: output('number', 'its score, 0–100'),
      evaluator_comment: output('string', 'the judge\'s comment'),
    }, 'a metric\'s score')
    return {
      scoreKeys: names,
      scoreKeysAre: 'each metric\'s name (0–1 here, 0–100 in `metrics`)',
      fields: {
        metrics: output('array', 'each metric\'s score (0–100) and comment', { items: metric }),
        metric_weights: keyedBy(names, output('number', 'its weight'), 'the weight each metric counted with'),
        evaluation_result: objectOf({
          metrics: output('array', 'each metric\'s score and comment', { items: metric }),
          overall_score: output('number', 'the overall score, 0–100'),
        }, 'the suite\'s result on the 0–100 scale'),
        warnings: WARNINGS_FIELD,
      },
    }
  },
})

/**
 * A suite's metrics: those of `metrics`, else the keys of `metric_weights`, else `enabled_metrics`,
 * else the defaults; only the enabled ones when `enabled_metrics` is given (evaluator/metrics/resolve.ts).
 */
export function metricNames(config: Record<string, unknown>): string[] | undefined {
  const weights = config.metric_weights
  const listed = Array.isArray(config.metrics) && config.metrics.length
    ? namesIn(config.metrics)
    : weights && typeof weights === 'object' && Object.keys(weights).length
      ? Object.keys(weights)
      : config.enabled_metrics !== undefined ? namesIn(config.enabled_metrics) : [...DEFAULT_METRICS]
  const enabled = config.enabled_metrics === undefined ? undefined : namesIn(config.enabled_metrics)
  if (!listed || (config.enabled_metrics !== undefined && !enabled)) return undefined
  return enabled ? [...new Set(listed.filter(name => enabled.includes(name)))] : listed
}
