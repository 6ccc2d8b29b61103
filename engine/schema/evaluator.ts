import type { StructuredOutput } from '../providers/types'
import type { AssertionGrade, AwaitingComparison } from '../assertions/types'
import { z } from 'zod'
import type { ScorerResult } from './scorers'
import { EVALUATION_INPUT_ALIASES, EVALUATION_INPUT_NAMES, EVALUATION_INPUTS, type EvaluationInputName } from '../evaluation-types/fields'
import { deterministicTypes, evaluationTypes, METRIC_DEFAULT_MODEL, type EvaluationType } from './evaluation-types'

/**
 * Browser-safe: the editor's forms and the server validate with these same schemas. The config's
 * schema is built from the evaluation types' own (engine/evaluation-types/).
 */
export { deterministicTypes, evaluationTypes, METRIC_DEFAULT_MODEL, type EvaluationType }
export { criterionSchema, type Criterion } from '../evaluation-types/criteria/schema'
export { rubricGradeSchema, type RubricGrade } from '../evaluation-types/rubric/schema'
export { metricConfigSchema, llmDefaultSchema, type MetricConfig, type LlmDefault } from '../evaluation-types/metrics/schema'
export { evaluatorConfigSchema, type EvaluatorConfig, type EvaluatorConfigInput, type EvaluatorConfigOf } from '../evaluation-types/config-schema'

export const candidateSchema = z.union([
  z.string(),
  z.object({ id: z.string().optional(), text: z.string() }),
])

export { EVALUATION_INPUT_ALIASES }

/** A value of each kind of input (engine/evaluation-types/fields.ts). */
const inputValue = {
  'text': z.string().optional(),
  'json': z.unknown().optional(),
  'json-or-text': z.unknown().optional(),
  'candidates': z.array(candidateSchema).optional(),
} as const
type InputShape = { [K in EvaluationInputName]: (typeof inputValue)[(typeof EVALUATION_INPUTS)[K]['value']] }
type AliasShape = { [A in keyof typeof EVALUATION_INPUT_ALIASES]: InputShape[(typeof EVALUATION_INPUT_ALIASES)[A]] }

const evaluationInputFields = z.object({
  ...Object.fromEntries(EVALUATION_INPUT_NAMES.map(name => [name, inputValue[EVALUATION_INPUTS[name].value]])) as InputShape,
  ...Object.fromEntries(Object.entries(EVALUATION_INPUT_ALIASES).map(([alias, name]) => [alias, inputValue[EVALUATION_INPUTS[name].value]])) as AliasShape,
  /** The caller's team, handed back in the result as given; it plays no part in judging. */
  team_id: z.string().max(200).optional(),
})

/** What an evaluator judges, by name (aliases included): every input field but the caller's team. */
export const EVALUATION_INPUT_FIELDS = Object.keys(evaluationInputFields.shape).filter(field => field !== 'team_id') as Array<Exclude<keyof typeof evaluationInputFields.shape, 'team_id'>>

/** What is evaluated. An alias (EVALUATION_INPUT_ALIASES) gives its field when the field itself is not given. */
export const evaluationInputSchema = evaluationInputFields.transform((given) => {
  const input: Record<string, unknown> = { ...given }
  for (const [alias, name] of Object.entries(EVALUATION_INPUT_ALIASES)) {
    input[name] ??= input[alias]
    delete input[alias]
  }
  return input as Omit<typeof given, keyof typeof EVALUATION_INPUT_ALIASES>
})
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

export type PanelAggregate = 'majority' | 'mean'

export interface PanelResult {
  aggregate: PanelAggregate
  /** A comparison's judges also name their `winner` (null: a tie). */
  judges: { model: string, overall_score: number, passed: boolean, winner?: string | null }[]
  /** The share of pairs of judges that reached the same verdict, or for a comparison named the same winner (1: unanimous). */
  agreement: number
  /** The verdict and the rule that decided it, in one sentence: "passed: 2 of 3 judges passed (majority), though the mean score 0.63 is under 0.70". */
  verdict_rule: string
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
  /**
   * `repaired`: answers read only after repairing the JSON around them; `structured_output`: how
   * the last answer was held to its schema (null when no judge was called).
   */
  judge: {
    model: string
    heuristic: boolean
    calls: number
    cached_calls: number
    reasks: number
    repaired: number
    structured_output: StructuredOutput | null
    /** Each part of the judge's fingerprint, hashed (engine/evaluator/fingerprint.ts): which changed, when one did. */
    fingerprint_parts?: Record<'models' | 'prompt' | 'criteria' | 'rubric' | 'weights' | 'threshold', string>
  }
  /** A hash of what decides the verdicts: models, prompt, criteria, rubric, weights, threshold (engine/evaluator/fingerprint.ts). */
  judge_fingerprint?: string
  usage: { input_tokens: number, output_tokens: number }
  /** What the judge's calls cost in US dollars at their models' prices (0 when none was called or all were cached); null when a model's price is not known. */
  cost_usd: number | null
  latency_ms: number
  /** Samples: each sample's overall score and their standard deviation. */
  samples?: { overall_scores: number[], sd: number }
  /** A judge panel (`judges`): each judge's score and verdict, how they were combined, and their agreement. */
  panel?: PanelResult
  /** Comparison. */
  ranking?: RankedCandidate[]
  winner?: string | null
  best_output?: string | null
  position_consistency?: number
  /** Scorers: each scorer's score, threshold, weight and details. */
  scorer_results?: ScorerResult[]
  /** Assertions: each assertion's grade (promptfoo's component results) and each metric's weighted mean. */
  assertions?: AssertionGrade[]
  named_scores?: Record<string, number>
  /** Assertions: the output as they graded it, when a transform (the provider's, the test's) changed it. */
  graded_output?: string
  /** Assertions over a test's outputs (select-best given `candidates`): one grade per candidate, in their order. */
  selections?: AssertionGrade[]
  /** Assertions: a comparison with the test's other outputs still to come (select-best), and the test's verdict without it. */
  awaiting_comparison?: AwaitingComparison
  /** Trace scoring: the factors, the profile and the overrides that fired. */
  trace?: Record<string, unknown>
  /** Metric suite: each metric's score (0–100) and comment. */
  metrics?: MetricScore[]
  /** Metric suite: the weight each metric counted with. */
  metric_weights?: Record<string, number>
  /** What the reader should know about how the result was reached (e.g. an instruction the judge could not follow). */
  warnings?: string[]
  evaluation_result?: { metrics: MetricScore[], overall_score: number }
  /** The input's `team_id`, as given. */
  team_id?: string
}
