import { z } from 'zod'
import { modelRefSchema } from './common'
import { strictObject } from './unknown-keys'
import { scorerConfigSchema, scorerPresets, type ScorerResult } from './scorers'
import { evaluationTypes, METRIC_DEFAULT_MODEL, type EvaluationType } from './evaluation-types'

/** Browser-safe: the editor's forms and the server validate with these same schemas. */
export { evaluationTypes, METRIC_DEFAULT_MODEL, type EvaluationType }

/** Types that need no LLM judge. */
export const deterministicTypes: readonly EvaluationType[] = ['scorers', 'trace']

export const criterionSchema = z.object({
  name: z.string().min(1, 'is required').max(80).regex(/^[\w][\w .-]*$/, 'must be letters, digits, spaces, "_", "-" or "."')
    .refine(name => !['__proto__', 'constructor', 'prototype'].includes(name), 'is a reserved name'),
  description: z.string().max(2000).optional(),
  weight: z.number().min(0, 'must be at least 0').max(1, 'must be at most 1').optional(),
})
export type Criterion = z.infer<typeof criterionSchema>

export const rubricGradeSchema = z.object({
  grade: z.string().min(1, 'is required').max(16),
  min_score: z.number().min(0, 'must be at least 0').max(1, 'must be at most 1'),
  description: z.string().max(2000).optional(),
})
export type RubricGrade = z.infer<typeof rubricGradeSchema>

/** The judge's LLM parameters, shared by the config's defaults and each metric (agent-output-evaluator-spec FR-019). */
const llmParams = {
  model: modelRefSchema.optional(),
  /** Accepted with `model` holding only the model name. */
  provider: z.string().regex(/^[a-z][a-z0-9_-]*$/, 'must be a provider id such as openai or anthropic').optional(),
  system_instruction: z.string().max(20_000).optional(),
  temperature: z.number().min(0, 'must not be negative').max(2).optional(),
  max_tokens: z.number().int().positive().optional(),
  max_retries: z.number().int().min(0).max(10).optional(),
}

export const metricConfigSchema = strictObject({
  name: z.string().min(1, 'is required'),
  weight: z.number().min(0, 'must not be negative').max(1, 'must be at most 1').optional(),
  ...llmParams,
  model: z.string().min(1).optional(),
}, '[[metrics]]')
export type MetricConfig = z.infer<typeof metricConfigSchema>

export const llmDefaultSchema = strictObject({ ...llmParams, model: z.string().min(1).optional() }, '[llm_default]')
export type LlmDefault = z.infer<typeof llmDefaultSchema>

export const evaluatorConfigSchema = strictObject({
  evaluation_type: z.enum(evaluationTypes, { error: `must be one of ${evaluationTypes.join(', ')}` }),
  /** `provider:model`, or a model name with `provider`; defaults to the server's default judge. */
  model: z.string().min(1).optional(),
  provider: llmParams.provider,
  criteria: z.array(criterionSchema).max(50).optional(),
  pass_threshold: z.number().min(0, 'must be at least 0').max(1, 'must be at most 1').default(0.7),
  include_feedback: z.boolean().default(true),
  rubric: z.object({ grades: z.array(rubricGradeSchema).min(1, 'needs at least one grade').max(20) }).optional(),
  /** Comparison: the candidates, usually references such as `{{steps.a.text}}`. */
  compare_inputs: z.array(z.unknown()).optional(),
  /** The judge's temperature (0 when not given). */
  temperature: z.number().min(0, 'must not be negative').max(2).optional(),
  max_tokens: z.number().int().positive().optional(),
  /** Re-asks of the judge after an invalid answer (bad JSON, a missing criterion, a score out of range). */
  max_retries: z.number().int().min(0).max(10).optional(),
  /** Ask the judge n times and report the spread; the scores are the mean. */
  samples: z.number().int().min(1).max(10).default(1),
  /** One judge call per criterion instead of one for all. */
  per_criterion: z.boolean().default(false),
  /**
   * Judge calls at once (criteria, comparison orders, samples: 4 when not given). The metric
   * suite judges one metric after another (FR-014) unless `concurrency` is given.
   */
  concurrency: z.number().int().min(1).max(16).optional(),
  /** One judge call at a time, in order, whatever `concurrency` says. */
  sequential: z.boolean().optional(),
  /** Metric suite: defaults for every metric, and the metrics with weights. */
  llm_default: llmDefaultSchema.optional(),
  metrics: z.array(metricConfigSchema).max(30).optional(),
  /** Metric suite (FR-016): the model of every metric that names none, after `[llm_default]`. */
  default_model: z.string().min(1).optional(),
  default_provider: llmParams.provider,
  /** Metric suite: only these metrics are called and weighted (the others' weights are left out and the rest rescaled). */
  enabled_metrics: z.array(z.string().min(1, 'is required')).min(1, 'needs at least one metric').max(30).optional(),
  /** Metric suite: weights by metric name, for metrics that do not give their own. */
  metric_weights: z.record(z.string(), z.number().min(0, 'must not be negative').max(1, 'must be at most 1')).optional(),
  /** `false` asks the judge anew even for an identical input. */
  cache: z.boolean().optional(),
  /** Scorers: the list, or one of the guide's presets by name. */
  scorers: z.array(scorerConfigSchema).max(50).optional(),
  preset: z.enum(scorerPresets, { error: `must be one of ${scorerPresets.join(', ')}` }).optional(),
  /** Trace scoring. */
  trace: z.object({
    /** Custom domain profiles: weights complexity, novelty, tool_diversity, outcome_confidence summing to 1.0. */
    profiles: z.record(z.string(), z.object({ complexity: z.number(), novelty: z.number(), tool_diversity: z.number(), outcome_confidence: z.number() })).optional(),
    /** Score against an empty novelty cache of its own instead of the process-wide one. */
    fresh_cache: z.boolean().optional(),
    /** `none` (the default: novelty 0.5), `hashed` (offline hashed n-grams), or `transformers` (when installed with a local model). */
    embedder: z.enum(['hashed', 'transformers', 'none']).optional(),
    /** Novelty compares only with traces scored within this many milliseconds (at most the process's JUDGEFLOW_TRACE_CACHE_TTL_MS). */
    cache_ttl_ms: z.number().int('must be a whole number of milliseconds').positive('must be more than 0').optional(),
    /** Novelty compares only with this many most recent traces (at most the process's JUDGEFLOW_TRACE_CACHE_SIZE). */
    cache_size: z.number().int('must be a whole number').min(1, 'must be at least 1').max(100_000, 'must be at most 100000').optional(),
  }).strict().optional(),
}, 'the evaluator config')
export type EvaluatorConfig = z.infer<typeof evaluatorConfigSchema>
export type EvaluatorConfigInput = z.input<typeof evaluatorConfigSchema>

export const candidateSchema = z.union([
  z.string(),
  z.object({ id: z.string().optional(), text: z.string() }),
])

/** What is evaluated. `user_query` and `submission` are aliases of `context` and `content`. */
export const evaluationInputSchema = z.object({
  content: z.string().optional(),
  context: z.string().optional(),
  reference: z.string().optional(),
  candidates: z.array(candidateSchema).optional(),
  user_query: z.string().optional(),
  submission: z.string().optional(),
  actual: z.unknown().optional(),
  expected: z.unknown().optional(),
  original: z.unknown().optional(),
  trace: z.unknown().optional(),
}).transform(({ user_query, submission, ...rest }) => ({
  ...rest,
  content: rest.content ?? submission,
  context: rest.context ?? user_query,
}))
export type EvaluationInput = z.output<typeof evaluationInputSchema>

export interface MetricScore {
  metric_name: string
  /** 0–100 */
  score: number
  evaluator_comment: string
}

export interface RankedCandidate {
  id: string
  rank: number
  overall_score: number
  criteria_scores: Record<string, number>
  /** The candidate's score in each order it was shown in. */
  scores_by_order: number[]
}

export interface EvaluatorResult {
  passed: boolean
  /** 0–1, computed by judgeflow from the criteria scores and weights. */
  overall_score: number
  criteria_scores: Record<string, number>
  feedback: string
  suggestions: string[]
  grade: string | null
  /** 0–1; see `confidence_factors` for what it is made of. */
  confidence: number
  confidence_factors: { agreement: number, margin: number, validity: number, judge: number }
  criteria_reasons: Record<string, string>
  evaluation_type: EvaluationType
  pass_threshold: number
  judge: { model: string, heuristic: boolean, calls: number, cached_calls: number, reasks: number }
  usage: { input_tokens: number, output_tokens: number }
  latency_ms: number
  /** Samples: each sample's overall score and their standard deviation. */
  samples?: { overall_scores: number[], sd: number }
  /** Comparison. */
  ranking?: RankedCandidate[]
  winner?: string | null
  best_output?: string | null
  position_consistency?: number
  /** Scorers: each scorer's score, threshold, weight and details. */
  scorer_results?: ScorerResult[]
  /** Trace scoring: the factors, the profile and the overrides that fired. */
  trace?: Record<string, unknown>
  /** Metric suite (agent-output-evaluator-spec's EvaluationResult, scores 0–100). */
  metrics?: MetricScore[]
  /** Metric suite: the weight each metric counted with. */
  metric_weights?: Record<string, number>
  /** What the reader should know about how the result was reached (e.g. an instruction the judge could not follow). */
  warnings?: string[]
  evaluation_result?: { metrics: MetricScore[], overall_score: number }
}
