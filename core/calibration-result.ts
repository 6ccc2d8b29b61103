/** What a calibration says of a judge: read by the evaluator form, the dataset report and `--require-calibration`. */
import type { Interval } from '../engine/datasets'
import type { FingerprintPart } from '../engine/evaluator/fingerprint'

export interface Calibration {
  status: 'calibrated' | 'stale' | 'not_calibrated'
  /**
   * One sentence: "calibrated: κ 0.72 [0.61, 0.83] on support-cases v3", with why the κ cannot tell
   * when it cannot ("…, too few cases to tell: 10 labelled, 30 needed; …"), or why not calibrated.
   */
  message: string
  /** Calibrated, but its κ's interval too wide (or its cases too few) to tell (engine/datasets/kappa-interval.ts): why, in words. */
  uncertain?: string
  fingerprint: string
  dataset?: { id: string, name: string, version: number, current_version: number }
  dataset_run_id?: string
  kappa?: number | null
  kappa_ci?: Interval | null
  labelled?: number
  /** Stale: the parts of the judge that changed since the newest labelled run. */
  changed?: FingerprintPart[]
  /**
   * A calibration from a review queue (core/review/calibration.ts): the queue, the hash of the item
   * set compared, and the items people agree on that another judge judged (left out).
   */
  queue?: { id: string, name: string, items_hash: string, left_out: number }
  /** From a review queue: people's consensus label by the judge's verdict. */
  confusion?: Record<string, Record<string, number>>
}
