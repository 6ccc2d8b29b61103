import { z } from 'zod'
import { JudgeflowError } from '../../errors'
import type { EvaluatorResult, MetricConfig, MetricScore } from '../../schema/evaluator'
import { HEURISTIC_CONFIDENCE_CAP } from '../heuristic'
import { clamp01, confidenceOf, marginOf, passes, roundScore } from '../arithmetic'
import { checkWeights, invalidConfig, modelRefOf, type ConfigProblem, type ResolvedEvaluatorConfig } from '../config'
import { askJudge, mapLimit, type Validation } from '../judge'
import { metricPrompt, METRIC_JSON_SCHEMA } from '../prompts'
import { isHeuristic, limitOf, requireText, type EvaluationContext } from '../context'
import { DEFAULT_METRICS, type MetricDefinition, type MetricRegistry } from '../metrics/registry'
import { baseResult } from './result'

/** Built-in LLM defaults (FR-019), under `[llm_default]` and each metric's own settings. */
export const METRIC_DEFAULTS = { temperature: 0, max_tokens: undefined as number | undefined, max_retries: 3 }

export interface ResolvedMetric {
  name: string
  weight: number
  model: string
  system_instruction: string
  temperature: number
  max_tokens?: number
  max_retries: number
  definition: MetricDefinition
}

/**
 * Each metric's settings: the metric's own, then `[llm_default]`, then the built-in defaults.
 * Unknown names, bad weights and bad models are reported together, each naming its field.
 */
export function resolveMetrics(config: ResolvedEvaluatorConfig, registry: MetricRegistry): ResolvedMetric[] {
  const listed = config.metrics?.length ? config.metrics : DEFAULT_METRICS.map(name => ({ name }))
  const problems: ConfigProblem[] = []
  const weights = checkWeights(listed, 'metrics', problems)
  const seen = new Set<string>()
  const fallback = config.llm_default ?? {}
  const resolved = listed.map((metric, i): ResolvedMetric | undefined => {
    const definition = registry.get(metric.name)
    if (!definition) {
      problems.push({ path: `metrics[${i}].name`, message: `unknown metric "${metric.name}"; available metrics: ${registry.names().join(', ')}` })
      return undefined
    }
    if (seen.has(metric.name)) problems.push({ path: `metrics[${i}].name`, message: `"${metric.name}" is listed more than once` })
    seen.add(metric.name)
    const m: MetricConfig = metric
    if (m.provider && !m.model) problems.push({ path: `metrics[${i}].model`, message: `is required with provider "${m.provider}"` })
    const model = modelRefOf(m.model, m.provider ?? fallback.provider) ?? modelRefOf(fallback.model, fallback.provider) ?? config.model
    if (!/^[a-z][a-z0-9_-]*:\S/.test(model)) problems.push({ path: `metrics[${i}].model`, message: `must be "provider:model", e.g. "anthropic:claude-sonnet-4-5-20250929", not "${model}"` })
    return {
      name: metric.name,
      weight: weights[metric.name] ?? 0,
      model,
      system_instruction: m.system_instruction ?? fallback.system_instruction ?? definition.systemInstruction ?? '',
      temperature: m.temperature ?? fallback.temperature ?? METRIC_DEFAULTS.temperature,
      max_tokens: m.max_tokens ?? fallback.max_tokens ?? METRIC_DEFAULTS.max_tokens,
      max_retries: m.max_retries ?? fallback.max_retries ?? METRIC_DEFAULTS.max_retries,
      definition,
    }
  })
  if (problems.length) throw invalidConfig(problems, 'metric suite config')
  return resolved as ResolvedMetric[]
}

function validateMetric(json: unknown): Validation<{ score: number, evaluator_comment: string }> {
  const parsed = z.object({ score: z.number().min(0).max(100), evaluator_comment: z.string() }).safeParse(json)
  if (parsed.success) return { ok: true, value: parsed.data }
  const score = (json as { score?: unknown } | null)?.score
  return { ok: false, problem: score === undefined ? 'score is missing' : typeof score !== 'number' || score < 0 || score > 100 ? `score ${JSON.stringify(score)} is not a number from 0 to 100` : 'evaluator_comment is missing' }
}

async function scoreOne(ctx: EvaluationContext, metric: ResolvedMetric, submission: string): Promise<MetricScore> {
  const input = { user_query: ctx.input.context, submission, reference: ctx.input.reference }
  let verdict: { score: number, evaluator_comment: string }
  if (metric.definition.score) {
    // A custom metric's answer is checked like a judge's: out of range is an error, never a score.
    let answer: unknown
    try {
      answer = await metric.definition.score(input)
    }
    catch (error) {
      throw new JudgeflowError('INTERNAL', `Metric "${metric.name}" failed: ${(error as Error).message}`, { category: 'system', cause: error })
    }
    const checked = validateMetric(answer)
    if (!checked.ok) throw new JudgeflowError('INTERNAL', `Metric "${metric.name}" returned an invalid result: ${checked.problem}.`, { category: 'system' })
    verdict = checked.value
  }
  else if (isHeuristic(metric.model)) verdict = ctx.heuristic.scoreMetric(metric.name, submission)
  else {
    verdict = await askJudge(ctx.providers, metric.model, {
      prompt: metricPrompt(metric.system_instruction, input),
      jsonSchema: METRIC_JSON_SCHEMA,
      validate: validateMetric,
      temperature: metric.temperature,
      maxTokens: metric.max_tokens,
      maxRetries: metric.max_retries,
      maxProviderRetries: metric.max_retries,
      cache: ctx.config.cache,
      signal: ctx.signal,
      what: `metric "${metric.name}"`,
    }, ctx.stats)
  }
  return { metric_name: metric.name, score: roundScore(verdict.score), evaluator_comment: verdict.evaluator_comment }
}

/**
 * The metric suite: one judge call per metric returning 0–100 and a comment; the overall score
 * is their weighted average. All or nothing: one metric failing after its retries fails it all.
 */
export async function evaluateMetrics(ctx: EvaluationContext, metrics: ResolvedMetric[]): Promise<EvaluatorResult> {
  const submission = requireText(ctx.input.content, 'submission')
  for (const metric of metrics) if (!metric.definition.score && !isHeuristic(metric.model)) ctx.providers.check(metric.model, `metric "${metric.name}"`)
  const scores = await mapLimit(metrics, limitOf(ctx.config), metric => scoreOne(ctx, metric, submission))
  const overall100 = roundScore(scores.reduce((sum, s, i) => sum + s.score * metrics[i]!.weight, 0))
  const overall_score = roundScore(overall100 / 100)
  const heuristic = metrics.every(m => isHeuristic(m.model) && !m.definition.score)
  const factors = { agreement: 1, margin: marginOf(overall_score, ctx.config.pass_threshold), validity: clamp01(1 - 0.1 * ctx.stats.reasks), judge: heuristic ? HEURISTIC_CONFIDENCE_CAP : 1 }
  const base = baseResult(ctx)
  const models = [...new Set(metrics.filter(m => !m.definition.score).map(m => m.model))]
  return {
    ...base,
    judge: { ...base.judge, model: models.join(', ') || 'code', heuristic },
    passed: passes(overall_score, ctx.config.pass_threshold),
    overall_score,
    criteria_scores: Object.fromEntries(scores.map(s => [s.metric_name, roundScore(s.score / 100)])),
    criteria_reasons: Object.fromEntries(scores.map(s => [s.metric_name, s.evaluator_comment])),
    feedback: ctx.config.include_feedback ? scores.map(s => `${s.metric_name}: ${s.evaluator_comment}`).join('\n') : '',
    suggestions: [],
    grade: null,
    confidence: confidenceOf(factors),
    confidence_factors: factors,
    metrics: scores,
    evaluation_result: { metrics: scores, overall_score: overall100 },
  }
}
