/** What a dataset run is asked to do, as the API and `judgeflow test` ask it, and the options it keeps. */

import { z } from 'zod'
import { JudgeflowError } from '../engine'
import { modelRefSchema } from '../engine/schema/common'
import { MAX_CASE_DELAY_MS, type BaselineReport, type CostEstimate, type DatasetCase, type DatasetGates, type ReportCalibration } from '../engine/datasets'
import type { RecordedOutputs } from '../engine/datasets/recorded-outputs'
import { MAX_STORED_INTEGER } from './store'

const DEFAULT_CONCURRENCY = 8
export { MAX_CASE_DELAY_MS }

/**
 * The gates every dataset run is held to unless it asks otherwise — from the API, `judgeflow test`
 * and the library alike: as promptfoo fails a run when any test fails, every case must pass, and
 * no case may error. A gate asked for replaces its default; `min_pass_rate: 0` turns that one off.
 */
export const DEFAULT_GATES = { min_pass_rate: 1, max_errors: 0 } as const satisfies DatasetGates

/** The gates asked for, each one not asked for at its default. */
export function gatesWithDefaults(gates: DatasetGates = {}): DatasetGates {
  return { ...gates, min_pass_rate: gates.min_pass_rate ?? DEFAULT_GATES.min_pass_rate, max_errors: gates.max_errors ?? DEFAULT_GATES.max_errors }
}

export const datasetRunRequestSchema = z.object({
  /** The dataset's id or name. */
  dataset: z.string().min(1, 'is required'),
  /** Its current version unless given. */
  version: z.number().int().min(1).max(MAX_STORED_INTEGER, `must be a whole number from 1 to ${MAX_STORED_INTEGER}`).optional(),
  /** A saved workflow (id or name), or an evaluator config judged alone. */
  target: z.union([
    z.object({ workflow_id: z.string().min(1, 'is required') }).strict(),
    z.object({ evaluator: z.record(z.string(), z.unknown()) }).strict(),
  ], { error: 'give { "workflow_id": … } or { "evaluator": { … } }' }),
  concurrency: z.number().int().min(1).max(64).default(DEFAULT_CONCURRENCY),
  repeat: z.number().int().min(1).max(20).default(1),
  /** The evaluator step whose `overall_score` is a case's score (the last evaluator that ran unless given). */
  score_step: z.string().min(1).optional(),
  gates: z.object({
    min_pass_rate: z.number().min(0).max(1).optional(),
    min_kappa: z.number().min(-1).max(1).optional(),
    no_regressions: z.boolean().optional(),
    max_errors: z.number().int().min(0).optional(),
    /** The largest share of flaky cases allowed; needs `repeat` of 2 or more. */
    max_flaky: z.number().min(0).max(1).optional(),
  }).strict().optional().transform(gatesWithDefaults),
  /** An earlier dataset run of the same dataset to compare with. */
  baseline_run_id: z.string().min(1).optional(),
  /** Or an earlier report of it (as `judgeflow test --report` writes), named in the report by `baseline_label`. */
  baseline_report: z.record(z.string(), z.unknown()).optional(),
  baseline_label: z.string().min(1).max(200).optional(),
  /** Only these cases of the dataset, in its order. */
  case_ids: z.array(z.string().min(1)).min(1).optional(),
  /** Input fields set on every case, over the case's own. */
  vars: z.record(z.string(), z.string()).optional(),
  /** The `provider:model` judging every LLM-judged evaluator step of this run (the saved workflow is unchanged). */
  grader: modelRefSchema.max(200).optional(),
  /** Waited before each case starts. */
  delay_ms: z.number().int().min(0).max(MAX_CASE_DELAY_MS).optional(),
  /** `false`: every LLM call of the run is made anew. */
  cache: z.boolean().optional(),
  /**
   * Refuse to start unless the judge is calibrated on this dataset (its id or name), with a κ of at
   * least `min_kappa` (core/calibration.ts); with `min_kappa_lower`, the report's `min_kappa_lower`
   * gate holds the calibration's κ interval to a lower bound of at least that.
   */
  require_calibration: z.object({ dataset: z.string().min(1, 'is required'), min_kappa: z.number().min(-1).max(1), min_kappa_lower: z.number().min(-1).max(1).optional() }).strict().optional(),
  /**
   * A budget in US dollars: a run estimated to cost more is refused unless `force`; no case starts
   * that the budget left cannot pay for at the estimated cost per case, counting those under way
   * (those not started are reported as not run); the report's budget gate fails if the runs cost more.
   */
  max_cost_usd: z.number().positive('must be more than 0').max(1_000_000).optional(),
  /** Start even when the estimate is over `max_cost_usd`: the run then stops when the budget is spent. */
  force: z.boolean().optional(),
  /** Where the cases' recorded outputs came from, said in the report (e.g. an outputs file's name); "the dataset's output column" unless given. */
  outputs_from: z.string().trim().min(1).max(200).optional(),
  /** The workflow step the recorded outputs stand in for; by default the one step the evaluators judge. */
  output_step: z.string().min(1).max(200).optional(),
}).strict()
  .refine(r => !(r.baseline_run_id && r.baseline_report), { error: 'give baseline_run_id or baseline_report, not both', path: ['baseline_report'] })
  .refine(r => r.gates?.max_flaky === undefined || r.repeat > 1, { error: 'needs repeat of 2 or more: a case run once cannot be flaky', path: ['gates', 'max_flaky'] })
export type DatasetRunRequest = z.input<typeof datasetRunRequestSchema>

/** The request's options as the dataset run keeps them (the baseline report checked, only what the report reads of it). */
export interface StoredOptions {
  concurrency: number
  repeat: number
  score_step?: string
  gates?: DatasetGates
  baseline_run_id?: string
  baseline?: BaselineReport
  baseline_label?: string
  case_ids?: string[]
  vars?: Record<string, string>
  grader?: string
  delay_ms?: number
  cache?: boolean
  max_cost_usd?: number
  force?: boolean
  /** What the run was estimated to cost before it started. */
  estimate?: CostEstimate
  /** The cases are judged on their recorded outputs: where from, and the step they stand in for (none for an evaluator alone). */
  recorded?: RecordedOutputs
  /** The calibration required (`require_calibration`), as measured when the run started: in the report, its lower bound a gate. */
  calibration?: ReportCalibration
}

/** The cases a run takes: those of `case_ids` (all unless given), with `vars` set on each one's input. */
export function selectedCases(cases: readonly DatasetCase[], options: { case_ids?: readonly string[], vars?: Record<string, string> }): DatasetCase[] {
  let chosen = [...cases]
  if (options.case_ids) {
    const known = new Set(cases.map(c => c.id))
    const unknown = options.case_ids.find(id => !known.has(id))
    if (unknown !== undefined) throw new JudgeflowError('INVALID_INPUT', `case_ids: the dataset has no case "${unknown}"`)
    const wanted = new Set(options.case_ids)
    chosen = chosen.filter(c => wanted.has(c.id))
  }
  const vars = options.vars
  return vars && Object.keys(vars).length ? chosen.map(c => ({ ...c, input: { ...c.input, ...vars } })) : chosen
}
