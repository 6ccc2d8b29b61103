/**
 * The gates a dataset run is held to, and the CLI's exit code. A gate decides on the unrounded
 * figure; its `actual` is the report's (rounded) one. A gate with nothing to measure (no judged
 * case for `min_pass_rate`, no κ for `min_kappa`, no baseline for `no_regressions`) has a null
 * `actual` and fails.
 *
 * `max_flaky` holds the share of flaky cases (repeats.ts) to at most the given share; it needs
 * repeats, and a run asking for it with one is refused before it starts.
 *
 * `min_kappa_lower` holds the judge's calibration (`--require-calibration`, measured before the run
 * started) to a κ interval whose lower bound reaches the given one: a κ of 0.60 on [0.00, 1.00]
 * reaches a min_kappa of 0.6 and tells nothing. Its `actual` is null (it fails) with fewer than 30
 * labelled cases, whose bootstrap bound means nothing (kappa-interval.ts: trustedLowerBound). Like
 * the budget's, it is a gate of its own.
 */
import { round4 } from './stats'

export type GateName = 'min_pass_rate' | 'min_kappa' | 'min_kappa_lower' | 'no_regressions' | 'max_flaky' | 'max_cost_usd' | 'max_errors'

export interface DatasetGates {
  min_pass_rate?: number
  min_kappa?: number
  no_regressions?: boolean
  /** The largest share of flaky cases allowed (0–1). */
  max_flaky?: number
  /** Errored cases allowed; 0 unless given. */
  max_errors?: number
}

export interface GateResult {
  gate: GateName
  required: number
  actual: number | null
  passed: boolean
}

export interface GateFigures {
  pass_rate: number | null
  kappa: number | null
  /** Null without a baseline. */
  regressions: number | null
  errored: number
  /** Flaky cases / cases with two or more succeeded runs; null when none has. */
  flaky_share?: number | null
  /** A budget's figures: the budget, what the runs cost (null: not known) and the cases it left not run. */
  max_cost_usd?: number
  cost_usd?: number | null
  not_run?: number
  /** The lower bound required of the calibration's κ interval, and that bound (null: no interval). */
  min_kappa_lower?: number
  kappa_lower?: number | null
}

const EPSILON = 1e-9
const roundOrNull = (x: number | null) => (x === null ? null : round4(x))

/**
 * The budget's gate, when there is a budget: it holds when every case ran (a case it left is never
 * a pass), each run's cost is known, and together they cost no more than the budget.
 */
export function budgetGate(figures: Pick<GateFigures, 'max_cost_usd' | 'cost_usd' | 'not_run'>): GateResult | undefined {
  if (figures.max_cost_usd === undefined) return undefined
  const actual = figures.cost_usd ?? null
  return { gate: 'max_cost_usd', required: figures.max_cost_usd, actual, passed: actual !== null && actual <= figures.max_cost_usd + EPSILON && !figures.not_run }
}

/** The calibration's lower-bound gate, when one is required: its κ interval's lower bound reaches it. */
export function calibrationGate(figures: Pick<GateFigures, 'min_kappa_lower' | 'kappa_lower'>): GateResult | undefined {
  if (figures.min_kappa_lower === undefined) return undefined
  const actual = figures.kappa_lower ?? null
  return { gate: 'min_kappa_lower', required: figures.min_kappa_lower, actual: roundOrNull(actual), passed: actual !== null && actual >= figures.min_kappa_lower - EPSILON }
}

/** The gates asked for, in a fixed order; `max_errors` (default 0) is always among them. */
export function evaluateGates(gates: DatasetGates, figures: GateFigures): GateResult[] {
  const results: GateResult[] = []
  if (gates.min_pass_rate !== undefined) {
    const actual = figures.pass_rate
    results.push({ gate: 'min_pass_rate', required: gates.min_pass_rate, actual: roundOrNull(actual), passed: actual !== null && actual >= gates.min_pass_rate - EPSILON })
  }
  if (gates.min_kappa !== undefined) {
    const actual = figures.kappa
    results.push({ gate: 'min_kappa', required: gates.min_kappa, actual: roundOrNull(actual), passed: actual !== null && actual >= gates.min_kappa - EPSILON })
  }
  const calibration = calibrationGate(figures)
  if (calibration) results.push(calibration)
  if (gates.no_regressions) {
    results.push({ gate: 'no_regressions', required: 0, actual: figures.regressions, passed: figures.regressions === 0 })
  }
  if (gates.max_flaky !== undefined) {
    const actual = figures.flaky_share ?? null
    results.push({ gate: 'max_flaky', required: gates.max_flaky, actual: roundOrNull(actual), passed: actual !== null && actual <= gates.max_flaky + EPSILON })
  }
  const budget = budgetGate(figures)
  if (budget) results.push(budget)
  const maxErrors = gates.max_errors ?? 0
  results.push({ gate: 'max_errors', required: maxErrors, actual: figures.errored, passed: figures.errored <= maxErrors })
  return results
}

export interface GatedReport {
  errored: number
  /** The cases a budget or a cancel left not run. */
  not_run?: readonly string[]
  gates: readonly GateResult[]
}

/** Every gate of the report holds. */
export function gatesHold(report: GatedReport): boolean {
  return report.gates.every(g => g.passed)
}

/**
 * `judgeflow test`'s exit code: 2 when errored cases exceed `max_errors` (0 when the report has no
 * such gate) or the budget left cases not run, since the figures then rest on too few cases; else
 * 1 when a gate fails (a budget overspent among them); else 0.
 */
export function exitCodeOf(report: GatedReport): 0 | 1 | 2 {
  const maxErrors = report.gates.find(g => g.gate === 'max_errors')?.required ?? 0
  if (report.errored > maxErrors) return 2
  // The budget left cases not run: the figures rest on fewer cases than were asked for.
  if (report.not_run?.length && report.gates.some(g => g.gate === 'max_cost_usd' && !g.passed)) return 2
  return gatesHold(report) ? 0 : 1
}
