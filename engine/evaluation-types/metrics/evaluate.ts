import { JudgeflowError } from '../../errors'
import type { EvaluatorResult, MetricScore } from '../../schema/evaluator'
import { HEURISTIC_CONFIDENCE_CAP } from '../../evaluator/heuristic'
import { clamp01, confidenceOf, marginOf, passes, roundScore } from '../../evaluator/arithmetic'
import { askJudge, mapLimit, type Validation } from '../../evaluator/judge'
import { metricAnswerSchema, metricPrompt, METRIC_JSON_SCHEMA } from './prompts'
import { isHeuristic, limitOf, requireText, type EvaluationContext } from '../../evaluator/context'
import type { ResolvedMetric } from '../../evaluator/metrics/resolve'
import { baseResult } from '../result'

function validateMetric(json: unknown): Validation<{ score: number, evaluator_comment: string }> {
  const parsed = metricAnswerSchema.safeParse(json)
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
  else if (isHeuristic(metric.model)) {
    verdict = ctx.heuristic.scoreMetric(metric.name, submission)
    if (!metric.builtin_instruction) verdict = { ...verdict, evaluator_comment: `${HEURISTIC_CANNOT_FOLLOW} ${verdict.evaluator_comment}` }
  }
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

/** Said in a metric's comment when the offline judge scored it without its system instruction. */
export const HEURISTIC_CANNOT_FOLLOW = '[local:heuristic cannot follow a system_instruction: scored from text features instead.]'

/** A missing key for a metric: what to change, depending on where its model came from. */
function keyRemedy(metric: ResolvedMetric): string {
  if (metric.model_source === 'built-in') return `It is the metric suite's built-in default model: set the key in the environment, or name a model in [llm_default] (model = "local:heuristic" judges offline).`
  return 'Set it in the environment, or name another model (model = "local:heuristic" judges offline).'
}

/**
 * The metric suite: one judge call per metric returning 0–100 and a comment; the overall score
 * is their weighted average. All or nothing: one metric failing after its retries fails it all.
 */
export async function evaluateMetrics(ctx: EvaluationContext, metrics: ResolvedMetric[]): Promise<EvaluatorResult> {
  const submission = requireText(ctx.input.content, 'submission')
  for (const metric of metrics) if (!metric.definition.score && !isHeuristic(metric.model)) ctx.providers.check(metric.model, `metric "${metric.name}"`, keyRemedy(metric))
  // One metric after another unless the config opts into concurrency.
  const scores = await mapLimit(metrics, limitOf(ctx.config, true), metric => scoreOne(ctx, metric, submission))
  const overall100 = roundScore(scores.reduce((sum, s, i) => sum + s.score * metrics[i]!.weight, 0))
  const overall_score = roundScore(overall100 / 100)
  const heuristic = metrics.every(m => isHeuristic(m.model) && !m.definition.score)
  const factors = {
    agreement: 1,
    margin: marginOf(overall_score, ctx.config.pass_threshold),
    validity: clamp01(1 - 0.1 * ctx.stats.reasks),
    judge: heuristic ? HEURISTIC_CONFIDENCE_CAP : 1,
  }
  const base = baseResult(ctx)
  const models = [...new Set(metrics.filter(m => !m.definition.score).map(m => m.model))]
  const unfollowed = metrics.filter(m => !m.definition.score && isHeuristic(m.model) && !m.builtin_instruction).map(m => m.name)
  const warnings = [
    ...(unfollowed.length ? [`local:heuristic cannot follow a system_instruction; ${unfollowed.map(n => `"${n}"`).join(', ')} ${unfollowed.length > 1 ? 'were' : 'was'} scored from text features instead (name an LLM model for ${unfollowed.length > 1 ? 'them' : 'it'} to use the instruction).`] : []),
    // Nothing a user writes is dropped without a word: settings a metric cannot use are named.
    ...metrics.flatMap(m => (m.note ? [m.note] : [])),
  ]
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
    metric_weights: Object.fromEntries(metrics.map(m => [m.name, roundScore(m.weight)])),
    evaluation_result: { metrics: scores, overall_score: overall100 },
    ...(warnings.length ? { warnings } : {}),
  }
}
