/**
 * The dataset run report (snake_case; its names are a public format, fixed), built from the runs'
 * results in one pass. What each figure means:
 *
 * - A case counts once whatever its `repeat`: errored if any of its runs errored (reported apart,
 *   never a pass), else failed if any run's verdict is not `pass`, else passed. A case no run has
 *   reported on (a cancelled run) is in `cases` but in none of passed / failed / errored.
 * - flaky: the cases whose succeeded runs gave both verdicts; not_run: the cases no run reported
 *   on (a budget or a cancel left them).
 * - pass_rate = passed / (passed + failed): errored cases are left out of the denominator, as they
 *   were not judged. pass_rate_ci: the Wilson score interval, z = 1.959964 (95 %).
 * - A case's score is the mean of its runs' scores; mean_score is the mean of those over the cases
 *   that have one (errored cases left out); mean_score_ci: bootstrap percentile interval, 2,000
 *   resamples of cases, seeded (the same data give the same interval).
 * - pass_all_repeats (pass^N), pass_any_repeat (pass@N), and each result's score_sd, score_min and
 *   score_max (its case's spread over its repeats): see repeats.ts; present when a case ran more than once.
 * - by_tag: per tag, the cases carrying it, those passed, and passed / (passed + failed).
 * - latency_ms: p50 and p95 (nearest rank) over every run that reported one, and their total;
 *   tokens: totals over every run, in all and apart (generation: LLM steps; judge: evaluator
 *   steps); cost_usd: the runs' costs summed, null when a run's is not known (a model without a
 *   price) — never a partial sum presented as the whole.
 * - agreement (present when some case has expected.verdict or expected.score, or a judge panel
 *   judged; without labels, `labelled` is 0 and the label figures null or empty), over the labelled
 *   cases that did not error, the judged verdict being the case's as above:
 *   confusion `<expected>_<judged>`; accuracy = (pass_pass + fail_fail) / n;
 *   baseline_accuracy = the majority expected verdict's share;
 *   κ = (po − pe) / (1 − pe), po = accuracy, pe = P(expected pass)·P(judged pass) +
 *   P(expected fail)·P(judged fail); κ is null when pe = 1 (both sides gave every case one and the
 *   same verdict: nothing to agree on); kappa_ci: bootstrap percentile, 1,000 resamples, resamples
 *   with an undefined κ left out;
 *   fail_precision = fail_fail / (fail_fail + pass_fail), fail_recall = fail_fail / (fail_fail +
 *   fail_pass), null when the denominator is 0;
 *   spearman: ρ between the case's score and expected.score, average ranks for ties, null under 3
 *   pairs or without variance;
 *   threshold_sweep: κ of (score ≥ t ⇒ pass) against expected verdicts, t = 0.00, 0.05, …, 1.00,
 *   over the cases with both; recommended_threshold: the t of the highest κ, ties going to the t
 *   closest to 0.5 (then the lower);
 *   reliability: accuracy in confidence bands [0, 0.2), [0.2, 0.4), [0.4, 0.6), [0.6, 0.8),
 *   [0.8, 1.0] (a case's confidence is its runs' mean); bands without cases are left out;
 *   with a judge panel, over every succeeded run it judged (each run a subject, each judge a
 *   rater): judges_kappa, Fleiss' κ (stats.ts), and judges.pair_agreement, the runs' mean share of
 *   pairs of judges with the same verdict; judge_fingerprint (and its parts): the scored judge's,
 *   shared by every succeeded run, else null — what these figures are a calibration of.
 * - baseline: see baseline.ts; gates and exit codes: see gates.ts; grid (a promptfoo suite's
 *   tests × prompts × providers): see grid.ts.
 * - Rates, scores, κ and intervals are rounded to 4 decimals, p-values to 4 significant digits.
 */
import type { RecordedOutputs } from './recorded-outputs-note'
import { JudgeflowError } from '../errors'
import { mean } from '../evaluator/arithmetic'
import { agreementOf, judgesAgreementOf, sharedFingerprint, type Agreement, type LabelledCase } from './agreement'
import { compareWithBaseline, verdictLabels, type BaselineComparison, type BaselineReport } from './baseline'
import { budgetGate, calibrationGate, evaluateGates, type DatasetGates, type GateResult } from './gates'
import { gridOf, type ReportGrid } from './grid'
import { trustedLowerBound, type CalibrationSource } from './kappa-interval'
import { summarizeCases, type CaseRun } from './outcomes'
import { repeatFigures, type ScoreSpread } from './repeats'
import type { CasePanel, CaseResult, CaseTokens, DatasetCase, DatasetTarget, Verdict } from './schema'
import type { CaseCheck } from './case-checks'
import { reportWarningsOf, type ReportWarning } from './report-warnings'
import { bootstrapMeanInterval, kappaOf, nearestRank, round4, roundInterval, wilsonInterval, type BootstrapOptions, type Interval } from './stats'

export interface TagStats {
  cases: number
  passed: number
  pass_rate: number | null
}

/** One run of one case as the report lists it: absent fields are null. */
export interface ReportResult extends CaseRun {
  verdict: Verdict | null
  score: number | null
  run_id: string | null
  latency_ms: number | null
  error: string | null
  confidence?: number
  tokens?: CaseTokens
  /** What the run cost in US dollars (null: a model's price is not known); absent in reports written before it was kept. */
  cost_usd?: number | null
  /** The output it was judged on, cut past REPORT_OUTPUT_LIMIT characters; null when the run gave none. */
  output: string | null
  /** The scored evaluator's reason for its verdict; null when it gave none. Absent in reports written before it was kept. */
  reason?: string | null
  /** The scored evaluator's checks; null when none ran. */
  checks: CaseCheck[] | null
  /** The scored evaluator's judge panel, when it had one. */
  panel?: CasePanel
  /** Its case's pass^N and pass@N (repeats.ts): present when the case ran more than once and did not error. */
  pass_all_repeats?: boolean
  pass_any_repeat?: boolean
  /** Its case's spread over the repeats (repeats.ts): present when two or more of the case's runs have a score. */
  score_sd?: number
  score_min?: number
  score_max?: number
}

/**
 * The calibration a run was required to have (`require_calibration`, `--require-calibration`): the
 * judge's κ against people's labels on a dataset, as measured before the run started
 * (core/calibration.ts), and what was required of it.
 */
export interface ReportCalibration extends CalibrationSource {
  kappa: number | null
  kappa_ci: Interval | null
  labelled: number
  min_kappa: number
  /** The lower bound its κ interval must reach: the report's `min_kappa_lower` gate. */
  min_kappa_lower?: number
}

export interface DatasetReport {
  dataset: { id: string, name: string, version: number }
  target: DatasetTarget
  /** The dataset run this report is of, when it is of a stored one. */
  dataset_run_id?: string
  cases: number
  passed: number
  failed: number
  errored: number
  pass_rate: number | null
  pass_rate_ci: Interval | null
  mean_score: number | null
  mean_score_ci: Interval | null
  by_tag: Record<string, TagStats>
  flaky: string[]
  /** The cases no run reported on: left by a budget (`max_cost_usd`) or a cancel; in none of passed, failed, errored. */
  not_run?: string[]
  /** pass^N: share of judged cases whose every repeat passed (repeats.ts); present when a case ran more than once. */
  pass_all_repeats?: number | null
  /** pass@N: share of judged cases with a passing repeat; present with pass_all_repeats. */
  pass_any_repeat?: number | null
  latency_ms: { p50: number | null, p95: number | null, total: number }
  /** In all, and apart: the generation's (LLM steps) and the judge's (evaluator steps); those two are absent in reports written before they were kept. */
  tokens: { input: number, output: number, generation?: { input: number, output: number }, judge?: { input: number, output: number } }
  /** What the runs' LLM and judge calls cost in US dollars; null when some run's cost is not known; absent in reports written before it was kept. */
  cost_usd?: number | null
  /** What the run was estimated to cost before it started; null when a model's price is not known. Absent for a report not of a stored dataset run. */
  estimate_usd?: number | null
  agreement?: Agreement
  /** The calibration the run was required to have; present when one was. */
  calibration?: ReportCalibration
  baseline?: BaselineComparison
  gates: GateResult[]
  results: ReportResult[]
  /** An imported promptfoo suite's prompts × providers grid (grid.ts): its tests by its cells. */
  grid?: ReportGrid
  /**
   * The cases were judged on recorded outputs, with no generation call: where they came from (an
   * outputs file's name, or "the dataset's output column") and the step they stood in for (null: an evaluator alone).
   */
  recorded_outputs?: RecordedOutputs
  /**
   * What the runs' evaluators said about how their verdicts were reached (their results' `warnings`,
   * e.g. local:heuristic grading because no judge key was set), each once with the number of case
   * runs that said it; absent when none did.
   */
  warnings?: ReportWarning[]
}

export interface DatasetReportInput {
  dataset: { id: string, name: string, version: number, cases: readonly DatasetCase[] }
  target: DatasetTarget
  results: readonly CaseResult[]
  gates?: DatasetGates
  baseline?: BaselineReport
  /** The baseline's name in the report when it has no `dataset_run_id` (e.g. its file name). */
  baseline_label?: string
  dataset_run_id?: string
  /** The dataset run's budget in US dollars: the report then has a `max_cost_usd` gate. */
  max_cost_usd?: number
  /** What the run was estimated to cost before it started (estimate.ts); kept in the report as `estimate_usd`. */
  estimate_usd?: number | null
  /** The bootstraps' resamples and seed (defaults: 2,000 / 1,000 resamples, a fixed seed). */
  bootstrap?: { seed?: number, mean_resamples?: number, kappa_resamples?: number }
  /** The cases were judged on recorded outputs (recorded-outputs.ts). */
  recorded_outputs?: RecordedOutputs
  /** The calibration the run was required to have: in the report, and its lower bound a gate when one is required. */
  calibration?: ReportCalibration
}

export function buildDatasetReport(input: DatasetReportInput): DatasetReport {
  const { dataset, results } = input
  const summaries = summarizeCases(results)
  const caseIds = dataset.cases.map(c => c.id)
  const known = new Set(caseIds)
  for (const id of summaries.keys()) {
    if (!known.has(id)) throw new JudgeflowError('INVALID_INPUT', `a result names case "${id}", which is not in dataset "${dataset.name}" version ${dataset.version}`)
  }

  let passed = 0, failed = 0, errored = 0
  const flaky: string[] = []
  const notRun: string[] = []
  const scores: number[] = []
  const tags = new Map<string, { cases: number, passed: number, failed: number }>()
  const labelled: LabelledCase[] = []
  let hasLabels = false
  for (const c of dataset.cases) {
    const summary = summaries.get(c.id)
    const outcome = summary?.outcome
    if (outcome === 'passed') passed++
    else if (outcome === 'failed') failed++
    else if (outcome === 'errored') errored++
    if (summary?.flaky) flaky.push(c.id)
    if (!summary) notRun.push(c.id)
    if (summary && summary.score !== null) scores.push(summary.score)
    for (const tag of new Set(c.tags ?? [])) {
      const t = tags.get(tag) ?? { cases: 0, passed: 0, failed: 0 }
      t.cases++
      if (outcome === 'passed') t.passed++
      else if (outcome === 'failed') t.failed++
      tags.set(tag, t)
    }
    const expected = c.expected
    if (expected && (expected.verdict !== undefined || expected.score !== undefined)) {
      hasLabels = true
      if (summary?.verdict) labelled.push({ expected, verdict: summary.verdict, score: summary.score, confidence: summary.confidence })
    }
  }

  const seed = input.bootstrap?.seed
  const judges = judgesAgreementOf(results)
  const agreement = hasLabels || judges
    ? { ...sharedFingerprint(results), ...agreementOf(labelled, { seed, resamples: input.bootstrap?.kappa_resamples }), ...judges }
    : undefined
  const baseline = input.baseline
    ? compareWithBaseline(summaries, caseIds, input.baseline.results, input.baseline.dataset_run_id ?? input.baseline_label ?? 'baseline', verdictLabels(dataset.cases))
    : undefined
  const passRate = passed + failed === 0 ? null : passed / (passed + failed)
  const meanScore = scores.length ? mean(scores) : null
  const meanOptions: BootstrapOptions = { seed, resamples: input.bootstrap?.mean_resamples }
  const grid = gridOf(dataset.cases)
  const repeats = repeatFigures(summaries)
  const totals = runTotals(results)
  const budget = input.max_cost_usd === undefined ? {} : { max_cost_usd: input.max_cost_usd, cost_usd: totals.cost_usd, not_run: notRun.length }
  const warnings = reportWarningsOf(results)
  const calibration = input.calibration?.min_kappa_lower === undefined
    ? {}
    : { min_kappa_lower: input.calibration.min_kappa_lower, kappa_lower: trustedLowerBound(input.calibration) }

  return {
    dataset: { id: dataset.id, name: dataset.name, version: dataset.version },
    target: input.target,
    ...(input.recorded_outputs ? { recorded_outputs: input.recorded_outputs } : {}),
    ...(warnings.length ? { warnings } : {}),
    ...(input.dataset_run_id === undefined ? {} : { dataset_run_id: input.dataset_run_id }),
    cases: dataset.cases.length,
    passed,
    failed,
    errored,
    pass_rate: passRate === null ? null : round4(passRate),
    pass_rate_ci: roundInterval(wilsonInterval(passed, passed + failed)),
    mean_score: meanScore === null ? null : round4(meanScore),
    mean_score_ci: roundInterval(bootstrapMeanInterval(scores, meanOptions)),
    by_tag: Object.fromEntries([...tags].map(([tag, t]) => [tag, {
      cases: t.cases,
      passed: t.passed,
      pass_rate: t.passed + t.failed ? round4(t.passed / (t.passed + t.failed)) : null,
    }])),
    flaky,
    not_run: notRun,
    ...(repeats.repeated ? { pass_all_repeats: repeats.pass_all_repeats, pass_any_repeat: repeats.pass_any_repeat } : {}),
    ...totals,
    ...(input.estimate_usd === undefined ? {} : { estimate_usd: input.estimate_usd }),
    ...(agreement ? { agreement } : {}),
    ...(input.calibration ? { calibration: input.calibration } : {}),
    ...(baseline ? { baseline } : {}),
    // A budget, and a calibration's lower bound, are gates of their own, asked for or not: the report says whether they held.
    gates: input.gates
      ? evaluateGates(input.gates, {
          pass_rate: passRate,
          kappa: agreement ? kappaOf(agreement.confusion) : null,
          regressions: baseline ? baseline.regressions.length : null,
          errored,
          flaky_share: repeats.flaky_share,
          ...budget,
          ...calibration,
        })
      : [calibrationGate(calibration), budgetGate(budget)].filter(gate => gate !== undefined),
    results: caseIds.flatMap(id => (summaries.get(id)?.runs ?? []).map(r => reportResult(r, repeats.spreads.get(id), repeats.perCase.get(id)))),
    ...(grid ? { grid } : {}),
  }
}

/** Latency percentiles and totals, token totals and the cost, over every run. */
function runTotals(results: readonly CaseResult[]): Pick<DatasetReport, 'latency_ms' | 'tokens' | 'cost_usd'> {
  const latencies = new Float64Array(results.length)
  let timed = 0, total = 0, input = 0, output = 0
  const generation = { input: 0, output: 0 }
  const judge = { input: 0, output: 0 }
  let cost: number | null = 0
  for (const r of results) {
    if (typeof r.latency_ms === 'number') { latencies[timed++] = r.latency_ms; total += r.latency_ms }
    if (r.tokens) {
      input += r.tokens.input
      output += r.tokens.output
      generation.input += r.tokens.generation?.input ?? 0
      generation.output += r.tokens.generation?.output ?? 0
      judge.input += r.tokens.judge?.input ?? 0
      judge.output += r.tokens.judge?.output ?? 0
    }
    // A run that used tokens without a known cost makes the total unknown; a run with none cost nothing.
    if (r.cost_usd === null || (r.cost_usd === undefined && r.tokens && (r.tokens.input || r.tokens.output))) cost = null
    else if (cost !== null && r.cost_usd !== undefined) cost += r.cost_usd
  }
  const sorted = latencies.subarray(0, timed).sort()
  return {
    latency_ms: { p50: nearestRank(sorted, 50), p95: nearestRank(sorted, 95), total },
    tokens: { input, output, generation, judge },
    cost_usd: cost === null ? null : Math.round(cost * 1e8) / 1e8,
  }
}

type CaseRepeats = { pass_all_repeats: boolean, pass_any_repeat: boolean }

function reportResult(r: CaseResult, spread: ScoreSpread | undefined, repeated: CaseRepeats | undefined): ReportResult {
  return {
    case_id: r.case_id,
    repeat: r.repeat,
    status: r.status,
    verdict: r.verdict ?? null,
    score: r.score ?? null,
    run_id: r.run_id ?? null,
    latency_ms: r.latency_ms ?? null,
    error: r.error ?? null,
    output: r.output ?? null,
    reason: r.reason ?? null,
    checks: r.checks ?? null,
    ...(r.confidence === undefined ? {} : { confidence: r.confidence }),
    ...(r.tokens === undefined ? {} : { tokens: r.tokens }),
    ...(r.cost_usd === undefined ? {} : { cost_usd: r.cost_usd }),
    ...(r.panel === undefined ? {} : { panel: r.panel }),
    ...repeated,
    ...spread,
  }
}
