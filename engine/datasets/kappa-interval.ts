/**
 * Whether a κ measured against people's labels says enough to be read, and how it is said.
 * Browser-safe: the report page, the CLI, the report formats and the calibration all say it alike.
 *
 * The rule — a κ is "too few cases to tell" when fewer than MIN_LABELLED_FOR_KAPPA (30) cases were
 * labelled, or its 95 % interval could not be drawn; "too wide to tell" when the interval is wider
 * than MAX_KAPPA_INTERVAL_WIDTH (0.4). Why both:
 * - The width is what the reader needs: κ is read in bands 0.2 wide (Landis & Koch: fair 0.21–0.40,
 *   moderate 0.41–0.60, substantial 0.61–0.80), so an interval wider than 0.4 spans at least three
 *   of them and cannot say whether the judge agrees with people fairly or substantially.
 * - The count guards the width: the interval is a bootstrap percentile one (agreement.ts), and on a
 *   small sample it can be narrow for no good reason — 8 labelled cases the judge all got right
 *   give [1.00, 1.00]. Under 30 cases, a percentile bootstrap's interval is not to be trusted.
 */
import type { Interval } from './stats'

/** Fewer labelled cases than this and a κ's interval is not read as tight, whatever its width. */
export const MIN_LABELLED_FOR_KAPPA = 30
/** A κ interval wider than this spans three or more of κ's 0.2-wide bands. */
export const MAX_KAPPA_INTERVAL_WIDTH = 0.4

const EPSILON = 1e-9

export interface KappaMeasure {
  kappa: number | null | undefined
  kappa_ci: Interval | null | undefined
  labelled: number
}

/** The interval's width, to two decimals. */
const widthOf = (ci: Interval) => (ci[1] - ci[0]).toFixed(2)

/**
 * Why the κ cannot tell how well the judge agrees with people ("too few cases to tell: 10
 * labelled, 30 needed; the interval is 1.00 wide"), or null when its interval is tight enough.
 */
export function kappaUncertainty(m: Pick<KappaMeasure, 'kappa_ci' | 'labelled'>): string | null {
  const ci = m.kappa_ci
  if (m.labelled < MIN_LABELLED_FOR_KAPPA) {
    return `too few cases to tell: ${m.labelled} labelled, ${MIN_LABELLED_FOR_KAPPA} needed${ci ? `; the interval is ${widthOf(ci)} wide` : ''}`
  }
  if (!ci) return 'too few cases to tell: no interval could be drawn'
  if (ci[1] - ci[0] > MAX_KAPPA_INTERVAL_WIDTH + EPSILON) {
    return `too wide to tell: the interval is ${widthOf(ci)} wide, more than ${MAX_KAPPA_INTERVAL_WIDTH}, on ${m.labelled} labelled cases`
  }
  return null
}

/** "κ 0.60 [0.00, 1.00]", or "κ not defined" (every case one verdict on one side). */
export function kappaText(kappa: number | null | undefined, ci: Interval | null | undefined): string {
  if (kappa === null || kappa === undefined) return 'κ not defined'
  return `κ ${kappa.toFixed(2)}${ci ? ` [${ci[0].toFixed(2)}, ${ci[1].toFixed(2)}]` : ''}`
}

/** The κ with its interval and, when it cannot tell, why: "κ 0.60 [0.00, 1.00] — too few cases to tell: …". */
export function kappaSaid(m: KappaMeasure): string {
  const uncertain = kappaUncertainty(m)
  return `${kappaText(m.kappa, m.kappa_ci)}${uncertain ? ` — ${uncertain}` : ''}`
}

/** What a calibration is of: a labelled dataset's run, or a review queue with the item set compared (core/review/calibration.ts). */
export interface CalibrationSource {
  dataset?: { name: string, version: number }
  dataset_run_id?: string
  queue?: { id: string, name: string, items_hash: string }
}
type Source = Pick<CalibrationSource, 'dataset'> & { queue?: { name: string } }

/** A required calibration, in words: "κ 0.60 [0.00, 1.00] on support-cases v1 (10 labelled)". */
export function calibrationText(c: Source & { kappa: number | null, kappa_ci: Interval | null, labelled: number }): string {
  return `${kappaText(c.kappa, c.kappa_ci)} on ${calibrationSource(c)} (${c.labelled} labelled)`
}

/** What a calibration was measured on: "support-cases v3", or "review queue helpfulness". */
export function calibrationSource(c: Source): string {
  return c.queue ? `review queue ${c.queue.name}` : `${c.dataset?.name} v${c.dataset?.version}`
}

/**
 * The lower bound a `min_kappa_lower` gate reads: the interval's, or null (nothing to measure,
 * the gate fails) when there is no interval or fewer than MIN_LABELLED_FOR_KAPPA labelled cases —
 * 8 cases all agreed on give [1.00, 1.00], a bound that would pass any gate and means nothing.
 */
export function trustedLowerBound(m: Pick<KappaMeasure, 'kappa_ci' | 'labelled'>): number | null {
  return m.kappa_ci && m.labelled >= MIN_LABELLED_FOR_KAPPA ? m.kappa_ci[0] : null
}
