/**
 * What an evaluation type says about itself as plain data: its name, the step fields it reads, whether
 * it calls an LLM judge and which parts of the evaluator form it shows. Browser-safe and free of zod:
 * the editor's components import it on the page's first load (see `config-schema.ts` for the schemas
 * and `registry.ts` for the server-side definitions).
 */

/** The evaluator step's fields holding what is evaluated (each a text or a {{reference}}). */
export type EvaluationInputField = 'content' | 'context' | 'reference' | 'actual' | 'expected' | 'original' | 'trace'

/** The parts of the evaluator form (components/editor/EvaluatorForm.vue), which places them. */
export type FormSection = 'judge' | 'candidates' | 'criteria' | 'metrics' | 'scorers' | 'trace' | 'threshold' | 'feedback' | 'rubric'

export interface EvaluationTypeSpec<T extends string = string> {
  type: T
  label: string
  /** One sentence under the form's type select. */
  description: string
  /** The step fields the editor offers for this type, in order. */
  inputs: readonly EvaluationInputField[]
  /** Whether it calls an LLM judge (or the offline `local:heuristic` one); `false` is deterministic. */
  usesJudge: boolean
  /** Whether it judges one text, the step's `content` (taken from the step leading in when not set). */
  judgesContent: boolean
  sections: readonly FormSection[]
  /** Its own built-in judge, used instead of the server's default judge when the config names none. */
  defaultModel?: string
}

export function defineEvaluationTypeSpec<const T extends string>(spec: EvaluationTypeSpec<T>): EvaluationTypeSpec<T> {
  return spec
}
