/** The evaluation types, without the schemas: the editor lists them without loading zod. */
export const evaluationTypes = ['scoring', 'criteria', 'comparison', 'rubric', 'metrics', 'scorers', 'trace'] as const
export type EvaluationType = (typeof evaluationTypes)[number]

/** The types that judge one text, the step's `content`. */
export const contentTypes: readonly EvaluationType[] = ['scoring', 'criteria', 'rubric', 'metrics']
