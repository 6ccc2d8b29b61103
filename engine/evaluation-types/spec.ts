/**
 * What an evaluation type says about itself as plain data: its name, the step fields it reads, whether
 * it calls an LLM judge and which parts of the evaluator form it shows. Browser-safe and free of zod:
 * the editor's components import it on the page's first load (see `specs.ts` for the list of types,
 * `config-schema.ts` for the schemas and `registry.ts` for the server-side definitions).
 */
import type { OutputFields } from '../steps/outputs'
import type { JudgeDefault } from './parts'

import { EVALUATION_INPUT_NAMES, type EvaluationInputField } from './fields'

/** The evaluator step's fields holding what is evaluated (each a text or a {{reference}}): engine/evaluation-types/fields.ts. */
export type { EvaluationInputField }

/** The parts of the evaluator form (components/editor/EvaluatorForm.vue), which places them. */
export type FormSection = 'judge' | 'candidates' | 'criteria' | 'metrics' | 'scorers' | 'trace' | 'threshold' | 'feedback' | 'rubric' | 'assertions'

/**
 * The config fields each form section edits. A type's own settings are the fields of its sections,
 * the fields it describes itself (`settings` in its spec) and its `inputs`: the editor keeps the
 * others aside while another type is chosen, so that what is saved holds the chosen type's settings
 * only (tests/unit/evaluator/evaluation-types.test.ts checks every type's schema fields are one of these).
 */
export const FORM_SECTION_FIELDS: Readonly<Record<FormSection, readonly string[]>> = {
  judge: ['model', 'provider', 'judges', 'panel'],
  candidates: ['compare_inputs'],
  criteria: ['criteria'],
  metrics: ['metrics', 'llm_default', 'default_model', 'default_provider', 'enabled_metrics', 'metric_weights'],
  scorers: ['scorers', 'preset'],
  trace: ['trace_options'],
  threshold: ['pass_threshold'],
  feedback: ['include_feedback'],
  rubric: ['rubric'],
  assertions: ['assert', 'threshold', 'vars', 'latency_ms', 'cost_usd', 'embedding_model', 'transform', 'provider_transform', 'provider_output', 'response_transform'],
}

/** The most judges a panel has. */
export const MAX_PANEL_JUDGES = 7

/**
 * The config fields of sections, and the inputs a type may read: fields that belong to one type or
 * another (with the types' own settings, `TYPE_OWNED_FIELDS` in specs.ts).
 */
export const SECTION_AND_INPUT_FIELDS: ReadonlySet<string> = new Set([
  ...Object.values(FORM_SECTION_FIELDS).flat(),
  ...EVALUATION_INPUT_NAMES.filter(name => name !== 'candidates'),
])

/** The step config fields a type uses: its sections' fields, its own described fields and the step fields it reads. */
export function fieldsOfSpec(spec: Pick<EvaluationTypeSpec, 'sections' | 'inputs' | 'settings'>): Set<string> {
  return new Set([...spec.sections.flatMap(section => FORM_SECTION_FIELDS[section]), ...Object.keys(spec.settings ?? {}), ...spec.inputs])
}

/**
 * A config field of a type's own, which no section of the form edits: the form shows it under the
 * type's settings with this label and help, with a control of its kind, and names it in problems.
 */
export interface ConfigFieldDescriptor {
  label: string
  help: string
  /** A number (`integer`: a whole one), a line of text, a checkbox, or one of `options`. */
  control: 'number' | 'integer' | 'text' | 'boolean' | 'choice'
  options?: readonly string[]
  min?: number
  max?: number
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
  /** Whether a judge panel (`judges`, several judges and a verdict rule) may judge it instead of one judge. */
  panel?: boolean
  /** Whether it judges one text, the step's `content` (taken from the step leading in when not set). */
  judgesContent: boolean
  /** Whether, with no candidates listed, it ranks the texts of the steps wired into it, each named by its step's id. */
  candidatesFromGraph?: boolean
  sections: readonly FormSection[]
  /** Its own config fields that no section edits (its schema.ts has each), in the order the form shows them. */
  settings?: Readonly<Record<string, ConfigFieldDescriptor>>
  /** Its place in the editor's list of types (the lowest first); the types' numbers differ. */
  order: number
  /**
   * What its result holds beyond the fields every type reports (steps/evaluator/outputs.ts), and
   * the keys of `criteria_scores` (undefined when only the run knows them), from the step's config.
   */
  outputs(config: Record<string, unknown>): { scoreKeys: readonly string[] | undefined, scoreKeysAre: string, fields?: OutputFields }
  /** Its own built-in judge, used instead of the server's default judge when the config names none. */
  defaultModel?: string
  /**
   * The judge when the config names no `model` (else the server's default judge): the run resolves
   * it, and the editor names it in the judge picker.
   */
  judgeDefault?(config: Record<string, unknown>): JudgeDefault
}

export function defineEvaluationTypeSpec<const T extends string>(spec: EvaluationTypeSpec<T>): EvaluationTypeSpec<T> {
  return spec
}
