/**
 * promptfoo's assertions as judgeflow runs them: each type a handler that grades one output and
 * says pass, score (0–1) and why, the way promptfoo's own handler does for the same input, so a
 * suite carried over keeps its verdicts.
 */

/** One assertion as a promptfoo config writes it (values already rendered with the test's vars). */
export interface Assertion {
  type: string
  value?: unknown
  threshold?: number
  weight?: number
  metric?: string
  /** JavaScript that turns the output before this assertion grades it. */
  transform?: string
  /** assert-set: its own assertions. */
  assert?: Assertion[]
  config?: Record<string, unknown>
  /** The grader of this assertion (a test's own `options.provider`), instead of the evaluator's model. */
  grader?: string
  /** The embedding model of this assertion, instead of the evaluator's. */
  embedding_model?: string
}

/** What an assertion grades: the output and what promptfoo gives a handler beside it. */
export interface AssertionTarget {
  /** The output as the model gave it (a string, or the structured value a transform made). */
  output: unknown
  /** The prompt the model was given. */
  prompt?: string
  vars: Record<string, unknown>
  latencyMs?: number
  costUsd?: number | null
}

/** One assertion's grade, as promptfoo reports it in a test's component results. */
export interface AssertionGrade {
  type: string
  pass: boolean
  score: number
  reason: string
  metric?: string
  weight: number
  /** The grader failed (no answer, an unreadable one): a failure a `not-` can never turn into a pass. */
  graderError?: boolean
  /** An assert-set's assertions' grades; the parts a javascript / python grade returned (`componentResults`). */
  components?: AssertionGrade[]
  /** The scores by metric a javascript / python grade returned (`namedScores`), merged into the test's. */
  named_scores?: Record<string, number>
  /** A comparison of the test's outputs (select-best) not decided yet: failed until a dataset run decides it. */
  awaiting?: boolean
}

/**
 * A test's verdict while a comparison of its outputs (select-best) is still to come: the
 * assertion, the output as graded, and the test's verdict without the comparison, which the
 * comparison's grade is merged into as promptfoo merges it.
 */
export interface AwaitingComparison {
  assertion: Assertion
  output: string
  pass: boolean
  score: number
  reason: string
}

/** The services a handler may need beyond the output: a grader (model-graded types) and a code sandbox. */
export interface AssertionServices {
  /** Asks the grader with a prompt and returns its answer's JSON; throws when it has no usable answer. */
  grade?(request: GraderRequest): Promise<Record<string, unknown>>
  /** Asks the grader with a prompt and returns its answer as text (graders whose answer is not JSON). */
  ask?(request: Omit<GraderRequest, 'schema'>): Promise<string>
  /** One vector per text from the embedding model (`similar`, answer-relevance): the assertion's own, else the evaluator's. */
  embed?(texts: string[], model?: string): Promise<number[][]>
  /** Runs JavaScript or Python as promptfoo does (`output`, `context`), in a sandbox; throws on failure. */
  runScript?(language: 'javascript' | 'python', code: string, args: Record<string, unknown>, mode?: 'assertion' | 'transform'): Promise<unknown>
  signal?: AbortSignal
}

export interface GraderRequest {
  /** Which assertion asks (llm-rubric, factuality…): it names the call in errors and usage. */
  what: string
  system: string
  prompt: string
  /** The JSON object's fields the answer must have. */
  schema: Record<string, unknown>
  /** The assertion's own grader, else the evaluator's model. */
  model?: string
  /** What is judged and against what, for a grader that reads them apart (the offline judge). */
  judged: { output: string, criterion: string, threshold?: number }
}

/** A handler's answer before the runner adds type, weight and metric. */
export interface HandlerGrade {
  pass: boolean
  score: number
  reason: string
  graderError?: boolean
  /** The parts of the grade the user's code returned (promptfoo's `componentResults`), listed, not added to the score. */
  components?: AssertionGrade[]
  /** Scores by metric the user's code returned (promptfoo's `namedScores`), each weighted by `named_score_weights` (else 1). */
  named_scores?: Record<string, number>
  named_score_weights?: Record<string, number>
}

export interface HandlerInput {
  assertion: Assertion
  /** `not-` stripped. */
  baseType: string
  inverse: boolean
  /** The output as text (JSON for a structured one), as promptfoo's handlers read it. */
  text: string
  target: AssertionTarget
  services: AssertionServices
}

export interface AssertionHandler {
  type: string
  label: string
  description: string
  /** What it needs besides the output: a grader model, a code sandbox, the response's measures. */
  needs?: 'grader' | 'embeddings' | 'code' | 'latency' | 'cost'
  /** Also needs embeddings (answer-relevance asks the grader, then compares by embeddings). */
  alsoEmbeds?: boolean
  /** Whether it may be written with `not-` (promptfoo refuses some). */
  negatable?: boolean
  /** Its `not-` form grades as the plain form: promptfoo does not invert it, so neither does judgeflow (the import says so). */
  notInverted?: boolean
  /** It compares a test's outputs with each other (select-best): graded over every cell of the test, not one output. */
  comparesOutputs?: boolean
  /** The value's problem, said at import (so a suite is refused before it runs), or undefined. */
  check?(assertion: Assertion): string | undefined
  handle(input: HandlerInput): HandlerGrade | Promise<HandlerGrade>
}

export function passFail(pass: boolean, failed: string): HandlerGrade {
  return { pass, score: pass ? 1 : 0, reason: pass ? 'Assertion passed' : failed }
}

/** promptfoo's default embedding model, for `similar` and answer-relevance when no other is named. */
export const DEFAULT_EMBEDDING_MODEL = 'openai:text-embedding-3-large'

/** Whether an error is the evaluation being cancelled: it goes through, never becomes a failed grade. */
export const isAbort = (error: unknown): boolean => (error as Error | undefined)?.name === 'AbortError'
