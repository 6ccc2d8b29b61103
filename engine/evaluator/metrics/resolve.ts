import type { EvaluatorConfigOf, MetricConfig } from '../../schema/evaluator'
import { checkWeights, invalidConfig, isModelRef, modelRefOf, type ConfigProblem } from '../../evaluation-types/checks'
import type { ResolvedEvaluatorConfig } from '../config'
import { noDefaultModel, providerDefaultModel } from '../../providers/models'
import { builtinMetrics, DEFAULT_METRICS, type MetricDefinition, type MetricRegistry } from './registry'

/** Built-in LLM defaults, under `[llm_default]` and each metric's own settings; the model is METRIC_DEFAULT_MODEL. */
export const METRIC_DEFAULTS = { temperature: 0, max_tokens: undefined as number | undefined, max_retries: 3 }

type MetricsConfig = ResolvedEvaluatorConfig<EvaluatorConfigOf<'metrics'>>

/** Where a metric's model came from, so a missing key can say what to change. */
export type ModelSource = 'metric' | 'llm_default' | 'config' | 'built-in'

export interface ResolvedMetric {
  name: string
  /** The weight used: with `enabled_metrics`, the enabled metrics' weights rescaled to sum to 1. */
  weight: number
  model: string
  model_source: ModelSource
  system_instruction: string
  /** True when the instruction is the built-in metric's own: the offline judge approximates only those. */
  builtin_instruction: boolean
  temperature: number
  max_tokens?: number
  max_retries: number
  definition: MetricDefinition
  /** What the result should say of this metric's config, e.g. LLM settings a metric computed in code does not use. */
  note?: string
}

/** A metric's LLM settings: a metric computed in code uses none of them. */
const LLM_SETTINGS = ['model', 'provider', 'system_instruction', 'temperature', 'max_tokens', 'max_retries'] as const

const listOf = (items: readonly string[]) => (items.length > 1 ? `${items.slice(0, -1).join(', ')} and ${items.at(-1)}` : items[0] ?? '')

/**
 * A model as named, qualified by the provider in force; a provider named without a model stands
 * for that provider's default model (a provider with an optional model).
 */
function modelOf(settings: { model?: string, provider?: string }, provider: string | undefined, path: string, problems: ConfigProblem[]): string | undefined {
  if (settings.model) return modelRefOf(settings.model, provider)
  if (!settings.provider) return undefined
  const model = providerDefaultModel(settings.provider)
  if (!model) problems.push({ path: `${path}.provider`, message: noDefaultModel(settings.provider) })
  return model
}

/** A metric as listed, with where its name and its own settings are in the config. */
interface Listed { metric: MetricConfig, namePath: string, path: string }

/**
 * The metrics of a suite and where each was named: `[[metrics]]`, else the keys of
 * `metric_weights`, else `enabled_metrics`, else the three defaults. A weight comes from the
 * metric or from `metric_weights`, never from both.
 */
function listMetrics(config: MetricsConfig, problems: ConfigProblem[]): Listed[] {
  const byWeight = config.metric_weights ?? {}
  if (config.metrics?.length) {
    const names = new Set(config.metrics.map(m => m.name))
    for (const name of Object.keys(byWeight)) {
      if (!names.has(name)) problems.push({ path: `metric_weights.${name}`, message: `"${name}" is not one of the metrics in [[metrics]] (${[...names].join(', ')})` })
    }
    return config.metrics.map((metric, i) => {
      const other = byWeight[metric.name]
      if (metric.weight !== undefined && other !== undefined && other !== metric.weight) {
        problems.push({ path: `metrics[${i}].weight`, message: `${metric.weight} differs from metric_weights.${metric.name} (${other}): give the weight in one place` })
      }
      return { metric: { ...metric, weight: metric.weight ?? other }, namePath: `metrics[${i}].name`, path: `metrics[${i}]` }
    })
  }
  const weighted = Object.entries(byWeight)
  if (weighted.length) return weighted.map(([name, weight]) => ({ metric: { name, weight }, namePath: `metric_weights.${name}`, path: 'metrics' }))
  // Listed only as enabled: each once (enabledNames reports a repeat).
  if (config.enabled_metrics) return [...new Set(config.enabled_metrics)].map(name => ({ metric: { name }, namePath: `enabled_metrics[${config.enabled_metrics!.indexOf(name)}]`, path: 'metrics' }))
  return DEFAULT_METRICS.map(name => ({ metric: { name }, namePath: 'metrics', path: 'metrics' }))
}

/** The enabled metrics, each in the list; the others are neither weighted nor called. */
function enabledNames(config: MetricsConfig, listed: readonly Listed[], registry: MetricRegistry, problems: ConfigProblem[]): Set<string> | undefined {
  if (!config.enabled_metrics) return undefined
  const names = new Set(listed.map(l => l.metric.name))
  const enabled = new Set<string>()
  config.enabled_metrics.forEach((name, i) => {
    const path = `enabled_metrics[${i}]`
    if (enabled.has(name)) problems.push({ path, message: `"${name}" is listed more than once` })
    else if (!names.has(name)) {
      problems.push({ path, message: registry.get(name) ? `"${name}" is not one of the metrics of this suite (${[...names].join(', ')})` : `unknown metric "${name}"; available metrics: ${registry.names().join(', ')}` })
    }
    enabled.add(name)
  })
  return enabled
}

/**
 * Each metric's settings: the metric's own, then `[llm_default]`, then the config's top level
 * (`model` / `default_model`, `temperature`, `max_tokens`, `max_retries`), then the built-in
 * defaults. Unknown names, bad weights and bad models are reported together, each naming its field.
 * Only the enabled metrics are returned.
 */
export function resolveMetrics(config: MetricsConfig, registry: MetricRegistry): ResolvedMetric[] {
  const problems: ConfigProblem[] = []
  const listed = listMetrics(config, problems)
  const weightField = config.metric_weights && !config.metrics?.some(m => m.weight !== undefined) ? 'metric_weights' : 'metrics'
  const weights = checkWeights(listed.map(l => l.metric), weightField, problems)
  const enabled = enabledNames(config, listed, registry, problems)
  const seen = new Set<string>()
  const fallback = config.llm_default ?? {}
  const topProvider = config.default_provider ?? config.provider
  const resolved = listed.map(({ metric: m, namePath, path }): ResolvedMetric | undefined => {
    const definition = registry.get(m.name)
    if (!definition) {
      problems.push({ path: namePath, message: `unknown metric "${m.name}"; available metrics: ${registry.names().join(', ')}` })
      return undefined
    }
    if (seen.has(m.name)) problems.push({ path: namePath, message: `"${m.name}" is listed more than once` })
    seen.add(m.name)
    // A metric computed in code calls no model: its LLM settings are reported as having no effect.
    const computed = definition.score !== undefined
    const unused = computed ? LLM_SETTINGS.filter(key => m[key] !== undefined) : []
    const own = modelOf(m, m.provider ?? fallback.provider ?? topProvider, path, computed ? [] : problems)
    const shared = modelOf(fallback, fallback.provider ?? topProvider, 'llm_default', computed ? [] : problems)
    if (!own && !shared && !config.declared.model && topProvider && !providerDefaultModel(topProvider) && !computed) {
      problems.push({ path: config.default_provider ? 'default_provider' : 'provider', message: noDefaultModel(topProvider) })
    }
    const model = own ?? shared ?? config.model
    if (!computed && !isModelRef(model)) problems.push({ path: `${own ? path : shared ? 'llm_default' : 'metrics'}.model`, message: `must be "provider:model", e.g. "anthropic:claude-sonnet-4-5-20250929", not "${model}"` })
    const instruction = m.system_instruction ?? fallback.system_instruction ?? definition.systemInstruction ?? ''
    return {
      name: m.name,
      weight: weights[m.name] ?? 0,
      model,
      model_source: own ? 'metric' : shared ? 'llm_default' : config.declared.model || topProvider ? 'config' : 'built-in',
      system_instruction: instruction,
      builtin_instruction: builtinMetrics.some(b => b.name === m.name && b.systemInstruction === instruction),
      temperature: m.temperature ?? fallback.temperature ?? config.declared.temperature ?? METRIC_DEFAULTS.temperature,
      max_tokens: m.max_tokens ?? fallback.max_tokens ?? config.declared.max_tokens ?? METRIC_DEFAULTS.max_tokens,
      max_retries: m.max_retries ?? fallback.max_retries ?? config.declared.max_retries ?? METRIC_DEFAULTS.max_retries,
      definition,
      ...(unused.length ? { note: `metric "${m.name}" is computed in code: its ${listOf(unused)} ${unused.length > 1 ? 'have' : 'has'} no effect.` } : {}),
    }
  })
  if (problems.length) throw invalidConfig(problems, 'metric suite config')
  const active = (resolved as ResolvedMetric[]).filter(m => !enabled || enabled.has(m.name))
  if (!enabled) return active
  const total = active.reduce((sum, m) => sum + m.weight, 0)
  if (total <= 0) throw invalidConfig([{ path: 'enabled_metrics', message: 'every enabled metric has weight 0: nothing would count' }], 'metric suite config')
  return active.map(m => ({ ...m, weight: m.weight / total }))
}
