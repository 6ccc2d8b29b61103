/**
 * How far the judge agrees with people, on the labelled cases (those with `expected.verdict` or
 * `expected.score`) that did not error, and a judge panel's judges with one another. Formulas in
 * the comment at the top of report.ts.
 */
import { passes } from '../evaluator/arithmetic'
import type { CasePanel, Expected, Verdict } from './schema'
import { bootstrapKappaInterval, cohenKappa, confusionCode, fleissKappa, round4, roundInterval, spearman, type BootstrapOptions, type Confusion, type Interval } from './stats'

export interface LabelledCase {
  expected: Expected
  /** The case's judged verdict. */
  verdict: Verdict
  /** The case's mean score, when it has one. */
  score: number | null
  confidence: number | null
}

export interface ReliabilityBand {
  confidence: [number, number]
  cases: number
  accuracy: number
}

/** How far a judge panel's judges agreed with one another over a dataset run. */
export interface JudgesAgreement {
  /** The panel's models, as the runs named them. */
  models: string[]
  /** The runs a panel judged (succeeded, two or more judges). */
  runs: number
  /** The mean over those runs of the share of pairs of judges with the same verdict. */
  pair_agreement: number
}

export interface Agreement {
  /**
   * The fingerprint of the judge these figures are of (engine/evaluator/fingerprint.ts), shared by
   * every run judged; null when the runs' judges differ or none gave one. With `judge_fingerprint_parts`.
   */
  judge_fingerprint?: string | null
  judge_fingerprint_parts?: Record<string, string> | null
  /** Fleiss' κ of the panel's verdicts over the runs it judged; null without a panel or with nothing to agree on. */
  judges_kappa?: number | null
  /** The panel's pair agreement; present when a panel judged. */
  judges?: JudgesAgreement
  labelled: number
  accuracy: number | null
  baseline_accuracy: number | null
  kappa: number | null
  kappa_ci: Interval | null
  confusion: Confusion
  fail_precision: number | null
  fail_recall: number | null
  spearman: number | null
  threshold_sweep: Array<{ threshold: number, kappa: number | null }>
  recommended_threshold: number | null
  reliability: ReliabilityBand[]
}

/** The thresholds the sweep tries: 0.00, 0.05, …, 1.00. */
export const SWEEP_THRESHOLDS = Array.from({ length: 21 }, (_, k) => k / 20)
/** Confidence bands [0, 0.2), [0.2, 0.4), [0.4, 0.6), [0.6, 0.8), [0.8, 1.0]. */
export const CONFIDENCE_BANDS: Array<[number, number]> = [[0, 0.2], [0.2, 0.4], [0.4, 0.6], [0.6, 0.8], [0.8, 1]]

const ratio = (a: number, b: number) => (b === 0 ? null : round4(a / b))
const roundOrNull = (x: number | null) => (x === null ? null : round4(x))

export function agreementOf(cases: readonly LabelledCase[], bootstrap: BootstrapOptions = {}): Agreement {
  const withVerdict = cases.filter(c => c.expected.verdict !== undefined)
  const codes = new Uint8Array(withVerdict.length)
  const cells = [0, 0, 0, 0]
  withVerdict.forEach((c, i) => {
    codes[i] = confusionCode(c.expected.verdict === 'pass', c.verdict === 'pass')
    cells[codes[i]!]!++
  })
  const [pp, pf, fp, ff] = cells as [number, number, number, number]
  const confusion: Confusion = { pass_pass: pp, pass_fail: pf, fail_pass: fp, fail_fail: ff }
  const n = withVerdict.length
  const kappa = cohenKappa(pp, pf, fp, ff)

  const scoredPairs = cases.filter(c => c.score !== null && c.expected.score !== undefined)
  const rho = spearman(scoredPairs.map(c => c.score!), scoredPairs.map(c => c.expected.score!))

  const sweep = thresholdSweep(withVerdict.filter(c => c.score !== null))
  return {
    labelled: cases.length,
    accuracy: ratio(pp + ff, n),
    baseline_accuracy: ratio(Math.max(pp + pf, fp + ff), n),
    kappa: roundOrNull(kappa),
    kappa_ci: roundInterval(bootstrapKappaInterval(codes, bootstrap)),
    confusion,
    fail_precision: ratio(ff, ff + pf),
    fail_recall: ratio(ff, ff + fp),
    spearman: roundOrNull(rho),
    threshold_sweep: sweep.map(s => ({ threshold: s.threshold, kappa: roundOrNull(s.kappa) })),
    recommended_threshold: recommendedThreshold(sweep),
    reliability: reliabilityOf(withVerdict),
  }
}

/** κ of "score ≥ t ⇒ pass" (the evaluator's own rule) against the expected verdicts, at each t. */
export function thresholdSweep(cases: readonly LabelledCase[]) {
  if (cases.length === 0) return []
  return SWEEP_THRESHOLDS.map((threshold) => {
    let pp = 0, pf = 0, fp = 0, ff = 0
    for (const c of cases) {
      const judgedPass = passes(c.score!, threshold)
      if (c.expected.verdict === 'pass') { if (judgedPass) pp++; else pf++ }
      else if (judgedPass) fp++
      else ff++
    }
    return { threshold, kappa: cohenKappa(pp, pf, fp, ff) }
  })
}

/**
 * The threshold of the highest κ. Thresholds tied on κ sort the labelled cases alike, so the data
 * cannot choose between them: take the one closest to 0.5, the middle of the scale, and of two
 * equally close the lower. Null when no threshold has a κ.
 */
export function recommendedThreshold(sweep: ReadonlyArray<{ threshold: number, kappa: number | null }>): number | null {
  let best: { threshold: number, kappa: number } | null = null
  for (const s of sweep) {
    if (s.kappa === null) continue
    const better = best === null || s.kappa > best.kappa + 1e-12
      || (Math.abs(s.kappa - best.kappa) <= 1e-12 && Math.abs(s.threshold - 0.5) < Math.abs(best.threshold - 0.5) - 1e-12)
    if (better) best = { threshold: s.threshold, kappa: s.kappa }
  }
  return best?.threshold ?? null
}

/** Accuracy within each confidence band, over the cases with an expected verdict and a confidence; empty bands are left out. */
export function reliabilityOf(cases: readonly LabelledCase[]): ReliabilityBand[] {
  const counts = new Uint32Array(CONFIDENCE_BANDS.length)
  const right = new Uint32Array(CONFIDENCE_BANDS.length)
  for (const c of cases) {
    if (c.confidence === null || c.expected.verdict === undefined) continue
    const band = Math.min(CONFIDENCE_BANDS.length - 1, Math.max(0, Math.floor(c.confidence * 5 + 1e-9)))
    counts[band]!++
    if (c.verdict === c.expected.verdict) right[band]!++
  }
  return CONFIDENCE_BANDS.flatMap((confidence, i) => (counts[i] ? [{ confidence, cases: counts[i]!, accuracy: round4(right[i]! / counts[i]!) }] : []))
}

/** The runs' panel verdicts: Fleiss' κ over them and the mean pair agreement; null when no run had a panel of two or more. */
export function judgesAgreementOf(
  runs: ReadonlyArray<{ status: string, panel?: CasePanel | null }>,
): { judges_kappa: number | null, judges: JudgesAgreement } | null {
  const subjects: Array<[number, number]> = []
  const models = new Set<string>()
  let pairs = 0
  for (const run of runs) {
    const judges = run.panel?.judges
    if (run.status !== 'succeeded' || !judges || judges.length < 2) continue
    let passes = 0
    for (const j of judges) { models.add(j.model); if (j.passed) passes++ }
    subjects.push([passes, judges.length - passes])
    pairs += run.panel!.agreement
  }
  if (!subjects.length) return null
  const kappa = fleissKappa(subjects)
  return {
    judges_kappa: kappa === null ? null : round4(kappa),
    judges: { models: [...models], runs: subjects.length, pair_agreement: round4(pairs / subjects.length) },
  }
}

type Fingerprinted = { status: string, judge_fingerprint?: string | null, judge_fingerprint_parts?: Record<string, string> | null }

/** The judge fingerprint every succeeded run shares, with its parts; null when they differ or none has one. */
export function sharedFingerprint(runs: readonly Fingerprinted[]) {
  let shared: { judge_fingerprint: string, judge_fingerprint_parts: Record<string, string> | null } | null = null
  for (const run of runs) {
    if (run.status !== 'succeeded') continue
    const differs = shared && shared.judge_fingerprint !== run.judge_fingerprint
    if (!run.judge_fingerprint || differs) return { judge_fingerprint: null, judge_fingerprint_parts: null }
    shared ??= { judge_fingerprint: run.judge_fingerprint, judge_fingerprint_parts: run.judge_fingerprint_parts ?? null }
  }
  return shared ?? { judge_fingerprint: null, judge_fingerprint_parts: null }
}
