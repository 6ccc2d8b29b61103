/**
 * What an evaluation is given, described once: each input field's label and help for the forms,
 * and how its value is written (text, JSON, or either; a list of candidates). The evaluator step's
 * config split, the evaluation input's schema, the dataset inputs, the field labels and Try it all
 * read this table. A type lists the fields it reads in its spec (`inputs`) and describes its own
 * config fields there (`settings`). Browser-safe and free of zod.
 */

/** How an input's value is written: a text; JSON; JSON when it parses, else the text; a list of candidates. */
export type InputValueKind = 'text' | 'json' | 'json-or-text' | 'candidates'

export interface InputFieldDescriptor {
  label: string
  help: string
  value: InputValueKind
  /** Its other name in an evaluation's input (the agent-output evaluator's), used when the field itself is not given. */
  alias?: string
}

export const EVALUATION_INPUTS = {
  content: { label: 'Text to judge', help: 'Usually the text of the LLM step before this one.', value: 'text', alias: 'submission' },
  context: { label: 'Context', help: 'What the text answers, such as the question (optional).', value: 'text', alias: 'user_query' },
  reference: { label: 'Reference answer', help: 'A known good answer to compare with (optional).', value: 'text' },
  candidates: { label: 'Candidates', help: 'The texts to rank: each a text or {"id", "text"}.', value: 'candidates' },
  actual: { label: 'Actual output', help: 'The output to score.', value: 'json-or-text' },
  expected: { label: 'Expected output', help: 'What the output should be.', value: 'json-or-text' },
  original: { label: 'Original data', help: 'The data before the edit, for scorers that compare with it.', value: 'json-or-text' },
  trace: { label: 'Reasoning trace', help: 'The agent\'s steps to score.', value: 'json' },
} as const satisfies Record<string, InputFieldDescriptor>

/** Every input an evaluation may be given, by its name. */
export type EvaluationInputName = keyof typeof EVALUATION_INPUTS
/** The fields a type lists as what it reads (its candidates come with its `candidates` section). */
export type EvaluationInputField = Exclude<EvaluationInputName, 'candidates'>

export const EVALUATION_INPUT_NAMES = Object.keys(EVALUATION_INPUTS) as EvaluationInputName[]

type Aliases = { [K in EvaluationInputName as (typeof EVALUATION_INPUTS)[K] extends { alias: infer A extends string } ? A : never]: K }

/** The inputs' other names and the fields they stand for. */
export const EVALUATION_INPUT_ALIASES = Object.fromEntries(EVALUATION_INPUT_NAMES.flatMap((name) => {
  const { alias } = EVALUATION_INPUTS[name] as InputFieldDescriptor
  return alias ? [[alias, name]] : []
})) as Aliases

/** The evaluator step's fields beyond its inputs that are not evaluator config: a config file to read, and the trace settings (the config's `trace`). */
const STEP_SETTINGS = ['config_file', 'trace_options'] as const

/** The evaluator step's fields that are not passed to the evaluator as its config. */
export const EVALUATOR_STEP_FIELDS: ReadonlySet<string> = new Set([...EVALUATION_INPUT_NAMES, ...STEP_SETTINGS])

/**
 * A step's config in its two parts: what is judged, and the evaluator config. In a step, `trace`
 * is the data to score; the evaluator's trace settings go under `trace_options`.
 */
export function splitStepConfig(value: Record<string, unknown>) {
  const data = {} as Record<EvaluationInputName, unknown>
  const evaluator: Record<string, unknown> = {}
  for (const [key, field] of Object.entries(value)) {
    if (key in EVALUATION_INPUTS) data[key as EvaluationInputName] = field
    else if (!EVALUATOR_STEP_FIELDS.has(key)) evaluator[key] = field
  }
  if (value.trace_options) evaluator.trace = value.trace_options
  return { data, configFile: value.config_file as string | undefined, evaluator }
}
