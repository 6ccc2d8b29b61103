import { z } from 'zod'
import { NUL_REFUSAL } from '../text/safe-json'
import { pinnedItemSchema } from '../schema/workflow'

/**
 * Datasets: named lists of cases a workflow (or an evaluator alone) runs over, and what a dataset
 * run records of each case. Browser-safe.
 */

/** The longest wait before each case of a dataset run (`--delay`, promptfoo's evaluateOptions.delay): ten minutes. */
export const MAX_CASE_DELAY_MS = 600_000

export const verdicts = ['pass', 'fail'] as const
export type Verdict = (typeof verdicts)[number]

/** What a person judged of the case: their verdict, a score 0–1, a reference answer. */
export const expectedSchema = z.object({
  verdict: z.enum(verdicts).optional(),
  score: z.number().min(0, 'must be between 0 and 1').max(1, 'must be between 0 and 1').optional(),
  reference: z.string().optional(),
}).strict()
export type Expected = z.infer<typeof expectedSchema>

/** Ids and names are kept as text columns, which cannot hold a NUL character, whatever file or form they come from. */
const noNul = (text: string) => !text.includes('\u0000')
const NUL_MESSAGE = `is refused: ${NUL_REFUSAL}`

const caseIdSchema = z.string().trim().min(1, 'is required').max(200, 'is longer than 200 characters')
  .refine(id => id !== '__proto__', 'is a reserved name')
  .refine(noNul, NUL_MESSAGE)

/**
 * An output already produced for the case (recorded-outputs.ts): a text (`{ text }`), or the
 * generating step's whole output, as a `pinned` item is.
 */
export const recordedOutputSchema = pinnedItemSchema
export type RecordedOutput = z.infer<typeof recordedOutputSchema>

export const datasetCaseSchema = z.object({
  id: caseIdSchema,
  /** The workflow's input fields, or `content` / `context` / `reference` / `candidates` for an evaluator alone. */
  input: z.record(z.string(), z.unknown()),
  expected: expectedSchema.optional(),
  tags: z.array(z.string().trim().min(1, 'is empty')).optional(),
  /** A recorded output: the case is judged on it, with no generation call. */
  output: recordedOutputSchema.optional(),
}).strict()
export type DatasetCase = z.infer<typeof datasetCaseSchema>

export const datasetNameSchema = z.string().trim().min(1, 'is required').max(200, 'is longer than 200 characters')
  .refine(noNul, NUL_MESSAGE)

/** A dataset as stored: its cases in order, ids unique. */
export interface Dataset {
  name: string
  cases: DatasetCase[]
}

/** What a dataset run ran on: a saved workflow, or an evaluator config alone. */
export type DatasetTarget = { workflow_id: string } | { evaluator: true }

export const caseRunStatuses = ['succeeded', 'errored', 'cancelled'] as const
import type { CaseCheck } from './case-checks'
import type { AwaitingComparison } from '../assertions/types'

export type CaseRunStatus = (typeof caseRunStatuses)[number]

/** What a run's judge panel said: each judge's model, verdict and score; the share of pairs of judges that agreed. */
export interface CasePanel {
  judges: Array<{ model: string, passed: boolean, overall_score: number }>
  agreement: number
  /** The verdict and the rule that decided it (engine/evaluator/panel-verdict.ts); absent in reports written before it was kept. */
  verdict_rule?: string
}

/** A run's tokens: in all, and apart, the generation's (LLM steps) and the judge's (evaluator steps). */
export interface CaseTokens {
  input: number
  output: number
  generation?: { input: number, output: number }
  judge?: { input: number, output: number }
}

/** One run of one case (a case runs `repeat` times). */
export interface CaseResult {
  case_id: string
  /** 1-based. */
  repeat: number
  /** `cancelled`: the run was cut off when its dataset run was cancelled; it says nothing of the case. */
  status: CaseRunStatus
  /** The run's verdict (an evaluator alone: `passed`); absent when errored. */
  verdict?: Verdict
  /** The `overall_score` of the scored evaluator step, when one ran. */
  score?: number
  /** That evaluator's `confidence`, when it gave one. */
  confidence?: number
  run_id?: string
  latency_ms?: number
  tokens?: CaseTokens
  /** What the run's LLM and judge calls cost in US dollars; null when a model's price is not known. */
  cost_usd?: number | null
  /** Why the case errored: the provider down, a timeout, judge output invalid after retries. */
  error?: string | null
  /** The output it was judged on (cut past REPORT_OUTPUT_LIMIT characters). */
  output?: string
  /** The scored evaluator's reason for its verdict (its feedback), cut like the output. */
  reason?: string
  /** The scored evaluator's checks, each with its verdict and reason. */
  checks?: CaseCheck[]
  /** The scored evaluator's judge fingerprint, and its parts (engine/evaluator/fingerprint.ts). */
  judge_fingerprint?: string
  judge_fingerprint_parts?: Record<string, string>
  /** The scored evaluator's judge panel: each judge's verdict and score, and the share of pairs that agreed. */
  panel?: CasePanel
  /** A comparison with the test's other cells (select-best) still to decide (comparisons.ts); the verdict is final once it is gone. */
  awaiting_comparison?: AwaitingComparison
  /** What the run's evaluators said about how they reached their verdicts (their results' `warnings`), each once. */
  warnings?: string[]
}
