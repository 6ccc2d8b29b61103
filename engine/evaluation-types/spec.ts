/**
 * What an evaluation type says about itself as plain data: its name, the step fields it reads, whether
 * it calls an LLM judge and which parts of the evaluator form it shows. Browser-safe and free of zod:
 * the editor's components import it on the page's first load (see `specs.ts` for the list of types,
 * `config-schema.ts` for the schemas and `registry.ts` for the server-side definitions).
 */
import type { OutputFields } from '../steps/outputs'

/** The evaluator step's fields holding what is evaluated (each a text or a {{reference}}). */
export type EvaluationInputField = 'content' | 'context' | 'reference' | 'actual' | 'expected' | 'original' | 'trace'

/** The parts of the evaluator form (components/editor/EvaluatorForm.vue), which places them. */
export type FormSection = 'judge' | 'candidates' | 'criteria' | 'metrics' | 'scorers' | 'trace' | 'threshold' | 'feedback' | 'rubric' | 'assertions'

/**
 * The config fields each form section edits. A type's own settings are the fields of its sections
 * plus its `inputs`: the editor keeps the others aside while another type is chosen, so that what
 * is saved holds the chosen type's settings only (tests/unit/evaluator/evaluation-types.test.ts
 * checks every type's schema fields are here).
 */
export const FORM_SECTION_FIELDS: Readonly<Record<FormSection, readonly string[]>> = {
  judge: ['model', 'provider'],
  candidates: ['compare_inputs'],
  criteria: ['criteria'],
  metrics: ['metrics', 'llm_default', 'default_model', 'default_provider', 'enabled_metrics', 'metric_weights'],
  scorers: ['scorers', 'preset'],
  trace: ['trace_options'],
  threshold: ['pass_threshold'],
  feedback: ['include_feedback'],
  rubric: ['rubric'],
  assertions: ['assert', 'threshold', 'vars', 'latency_ms', 'cost_usd', 'embedding_model', 'transform', 'provider_transform'],
}

/** The step's config fields that belong to one type or another (the rest, such as temperature, every type takes). */
export const TYPE_OWNED_FIELDS: ReadonlySet<string> = new Set([
  ...Object.values(FORM_SECTION_FIELDS).flat(),
  'content', 'context', 'reference', 'actual', 'expected', 'original', 'trace',
])

/** The step config fields a type uses: its sections' fields and the step fields it reads. */
export function fieldsOfSpec(spec: Pick<EvaluationTypeSpec, 'sections' | 'inputs'>): Set<string> {
  return new Set([...spec.sections.flatMap(section => FORM_SECTION_FIELDS[section]), ...spec.inputs])
}

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
  /** Whether, with no candidates listed, it ranks the texts of the steps wired into it, each named by its step's id. */
  candidatesFromGraph?: boolean
  sections: readonly FormSection[]
  /** Its place in the editor's list of types (the lowest first); the types' numbers differ. */
  order: number
  /**
   * What its result holds beyond the fields every type reports (steps/evaluator/outputs.ts), and
   * the keys of `criteria_scores` (undefined when only the run knows them), from the step's config.
   */
  outputs(config: Record<string, unknown>): { scoreKeys: readonly string[] | undefined, scoreKeysAre: string, fields?: OutputFields }
  /** Its own built-in judge, used instead of the server's default judge when the config names none. */
  defaultModel?: string
}

export function defineEvaluationTypeSpec<const T extends string>(spec: EvaluationTypeSpec<T>): EvaluationTypeSpec<T> {
  return spec
}
