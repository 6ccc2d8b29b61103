/**
 * The pieces a type's checks speak of — its criteria, its rubric's grades, what it is given — as
 * plain types that import nothing of the types themselves, so that each type's schema.ts, the
 * config union built from them and the evaluator read the same names without importing each other.
 * Browser-safe, free of zod: the zod schemas (criteria/schema.ts, rubric/schema.ts) are checked
 * against these.
 */
import type { ConfigProblem } from './checks'
import type { EvaluationInputField } from './fields'

/** A criterion a judge scores: a name, what it means, and its weight among the others. */
export interface Criterion {
  name: string
  description?: string
  weight?: number
}

/** A rubric's band: its grade, from this score up to the next band's. */
export interface RubricGrade {
  grade: string
  min_score: number
  description?: string
}

/** What a type's own check settles beyond the schema: the criteria judged and the rubric's bands. */
export interface ResolvedParts {
  criteria?: Criterion[]
  grades?: RubricGrade[]
}

/** The judge a config without `model` gets, when the type has its own default. */
export interface JudgeDefault {
  /** The model named by the type's own fields (the metric suite's `default_model`), if any. */
  declared: string | undefined
  /** The field a wrong model is reported at. */
  field: string
  /** The model used when nothing names one. */
  fallback: string
}

/** What is given to an evaluation, as far as it is known. */
export interface GivenInputs {
  /** Whether a field is given (in a step: set to a value or a {{reference}}). */
  has(field: EvaluationInputField | 'candidates'): boolean
  /** How many candidates there are to compare; `undefined` when only the run can tell (a reference to a list). */
  candidates: number | undefined
}

/**
 * A type's checks beyond its schema, over its config `C`: browser-safe, exported by its schema.ts
 * and listed in config-schema.ts, so that the editor's validation runs the very checks a run does.
 * Methods (not function properties) so that one type's checks stand in the list of all.
 */
export interface EvaluationTypeChecks<C> {
  /**
   * Its fields that are a mistake on another type ("is only used by evaluation_type …"); the
   * others (criteria left on a scorers config, say) are set aside. A group is reported once.
   */
  exclusive?: ReadonlyArray<string | readonly string[]>
  /** Its own checks after the schema's, every problem named; returns the criteria and bands it settles. */
  resolve?(config: C, problems: ConfigProblem[]): ResolvedParts | void
  /**
   * What it needs to be given that is missing (inputs.ts): the workflow's validation asks it from a
   * step's config, `evaluate` from the run's values, so both refuse the same things.
   */
  checkInputs?(config: C, given: GivenInputs): ConfigProblem[]
}
