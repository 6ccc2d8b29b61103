/** The evaluation types, without the schemas: the editor lists them without loading zod. */
export const evaluationTypes = ['scoring', 'criteria', 'comparison', 'rubric', 'metrics', 'scorers', 'trace'] as const
export type EvaluationType = (typeof evaluationTypes)[number]

/** The types that judge one text, the step's `content`. */
export const contentTypes: readonly EvaluationType[] = ['scoring', 'criteria', 'rubric', 'metrics']

/** The metric suite's built-in default judge (agent-output-evaluator-spec FR-019), not the server's default judge. */
export const METRIC_DEFAULT_MODEL = 'anthropic:claude-sonnet-4-5-20250929'
