/** The metric suite in TOML, both ways. Browser-safe: the editor imports and exports suites with it. */
import { stringify } from 'smol-toml'
import { JudgeflowError } from '../errors'
import { DEFAULT_MAX_JSON_DEPTH } from '../text/safe-json'
import { parseTomlChecked } from '../text/safe-toml'

/**
 * The metric suite's TOML: `[llm_default]` and `[[metrics]]`
 * (also `[[metric]]`), each metric with name, weight, model (or provider + model),
 * system_instruction, temperature, max_tokens, max_retries. Top-level keys are the evaluator
 * config's (default_model, default_provider, enabled_metrics, metric_weights, pass_threshold,
 * include_feedback, concurrency…): the config schema refuses any other, by name.
 */
export function parseMetricSuiteToml(text: string, source = 'the TOML config', maxDepth = DEFAULT_MAX_JSON_DEPTH): Record<string, unknown> {
  const data = parseTomlChecked(text, { maxDepth, where: source })
  const { metrics, metric, ...rest } = data
  if (metrics !== undefined && metric !== undefined) throw new JudgeflowError('INVALID_CONFIG', `${source} has both [[metrics]] and [[metric]]: use one`)
  return {
    evaluation_type: 'metrics',
    ...rest,
    ...(metrics ?? metric ? { metrics: metrics ?? metric } : {}),
  }
}

/**
 * The TOML of a metrics config: evaluator settings at the top, then `[llm_default]` and one
 * `[[metrics]]` table per metric. Reading it back gives the same config.
 */
export function metricSuiteToToml(config: Record<string, unknown>): string {
  const { evaluation_type: _type, llm_default, metrics, enabled_metrics, metric_weights, ...settings } = config
  const top = Object.fromEntries(Object.entries(settings).filter(([, v]) => v !== undefined && v !== null && typeof v !== 'object'))
  return stringify({
    ...top,
    ...(Array.isArray(enabled_metrics) && enabled_metrics.length ? { enabled_metrics } : {}),
    ...(metric_weights && typeof metric_weights === 'object' && Object.keys(metric_weights).length ? { metric_weights } : {}),
    ...(llm_default && Object.keys(llm_default).length ? { llm_default: dropUndefined(llm_default as Record<string, unknown>) } : {}),
    ...(Array.isArray(metrics) && metrics.length ? { metrics: metrics.map(m => dropUndefined(m as Record<string, unknown>)) } : {}),
  }) + '\n'
}

const dropUndefined = (value: Record<string, unknown>) => Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined && v !== ''))
