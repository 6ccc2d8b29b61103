/**
 * A review queue's calibration (DESIGN.md, "Human review: annotation queues"): the judge against the
 * consensus of the people who labelled the queue, bound to the judge's fingerprint and the queue's
 * item set. Like a dataset run's calibration it is read from what is stored — the items' snapshot of
 * the judge's verdict and fingerprint, and the labels — so it is always the labels as they are now.
 *
 * Only items judged under the fingerprint asked about are compared — when they were added, or by the
 * judge re-run on the queue since; items with a consensus judged under another fingerprint (or none)
 * are left out and counted. `items_hash` names the set compared:
 * the same items give the same hash, an item labelled (or relabelled to a tie) since changes it.
 */
import { createHash } from 'node:crypto'
import { cohenKappaOf, consensusOf, withInterval, type ItemLabels } from '../../engine/review/agreement'
import { round4, roundInterval, type BootstrapOptions } from '../../engine/datasets/stats'
import { kappaText, kappaUncertainty } from '../../engine/datasets/kappa-interval'
import { changedParts, changedWords, type FingerprintPart, type JudgeFingerprint } from '../../engine/evaluator/fingerprint'
import type { Calibration } from '../calibration-result'
import type { ReviewItemRow, ReviewLabelRow, ReviewQueueRow } from '../review-rows'
import type { Store } from '../store'

/** An item people agree on, with the judge's verdict on it. */
export interface Compared { item: ReviewItemRow, consensus: string, verdict: string }

/** The items with a consensus and a judge's verdict, in the queue's order. */
export function comparable(items: readonly ReviewItemRow[], labels: readonly ReviewLabelRow[]): Compared[] {
  const perItem = labelsByItem(items, labels)
  return items.flatMap((item, i) => {
    const agreed = consensusOf(perItem[i]!)
    const verdict = item.judge?.verdict
    return agreed.label !== null && typeof verdict === 'string' ? [{ item, consensus: agreed.label, verdict }] : []
  })
}

/**
 * The items with a consensus and a verdict of the judge of this fingerprint: the one the item was
 * added with, else the judge's re-run on it (core/review/rejudge.ts) under that fingerprint.
 */
export function comparableUnder(items: readonly ReviewItemRow[], labels: readonly ReviewLabelRow[], fingerprint: string): Compared[] {
  const perItem = labelsByItem(items, labels)
  return items.flatMap((item, i) => {
    const agreed = consensusOf(perItem[i]!)
    const verdict = item.judge?.fingerprint === fingerprint ? item.judge.verdict : item.judge?.rejudged?.find(r => r.fingerprint === fingerprint)?.verdict
    return agreed.label !== null && typeof verdict === 'string' ? [{ item, consensus: agreed.label, verdict }] : []
  })
}

/** A hash of the compared items' ids and consensus: the item set the calibration is bound to. */
export function itemsHash(compared: ReadonlyArray<{ item: { id: string }, consensus: string }>): string {
  const text = compared.map(c => `${c.item.id}\u0000${c.consensus}`).sort().join('\n')
  return createHash('sha256').update(text).digest('hex').slice(0, 16)
}

/** The judge's κ against the consensus on the compared items, its interval and the confusion matrix (consensus label by judge verdict). */
export function judgeAgainstConsensus(compared: readonly Compared[], bootstrap: BootstrapOptions = {}) {
  const pairs = compared.map(c => ({ judge: c.verdict, consensus: c.consensus }))
  const measured = withInterval(pairs, list => cohenKappaOf(list, 'judge', 'consensus'), bootstrap)
  const confusion: Record<string, Record<string, number>> = {}
  for (const pair of pairs) {
    const row = (confusion[pair.consensus] ??= {})
    row[pair.judge] = (row[pair.judge] ?? 0) + 1
  }
  return { kappa: measured.value === null ? null : round4(measured.value), kappa_ci: roundInterval(measured.ci), labelled: pairs.length, confusion }
}

/** When the queue's labels were last given: a queue calibration's age, beside a dataset run's. */
export const labelledAt = (labels: readonly ReviewLabelRow[]) => labels.reduce((at, l) => Math.max(at, l.updatedAt), 0)

/** The judge's calibration on the queue: calibrated on the items it judged, else stale (they were judged by another judge), else not calibrated. */
export async function queueCalibrationOf(
  store: Store, fingerprint: JudgeFingerprint, queue: ReviewQueueRow, bootstrap: BootstrapOptions = {},
): Promise<Calibration & { at: number }> {
  const labels = await store.review.labels(queue.id)
  const items = await store.review.items(queue.id)
  const compared = comparable(items, labels)
  const mine = comparableUnder(items, labels, fingerprint.fingerprint)
  const base = { fingerprint: fingerprint.fingerprint, at: labelledAt(labels) }
  const about = (set: readonly Compared[]) => ({
    id: queue.id, name: queue.name, items_hash: itemsHash(set), left_out: Math.max(0, compared.length - set.length),
  })
  if (mine.length) {
    const figures = judgeAgainstConsensus(mine, bootstrap)
    const uncertain = kappaUncertainty(figures)
    const left = Math.max(0, compared.length - mine.length)
    const message = `calibrated: ${kappaText(figures.kappa, figures.kappa_ci)} on review queue ${queue.name} (${mine.length} items)`
      + `${left ? `, ${left} judged by another judge left out` : ''}${uncertain ? `, ${uncertain}` : ''}`
    return { ...base, status: 'calibrated', message, queue: about(mine), ...figures, ...(uncertain ? { uncertain } : {}) }
  }
  const other = compared.find(c => c.item.judge?.fingerprint)
  if (other) {
    const parts = other.item.judge?.fingerprint_parts as Record<FingerprintPart, string> | null | undefined
    const changed = parts ? changedParts(parts, fingerprint.parts) : []
    const what = changedWords(changed)
    return { ...base, status: 'stale', changed, queue: about([]), message: `stale: ${what} changed since the items of review queue ${queue.name} were judged` }
  }
  return { ...base, status: 'not_calibrated', queue: about([]), message: `not calibrated: review queue ${queue.name} has no item people agree on with a judge's fingerprint` }
}

/** The queue with this id, else the one with this name (the newest of that name). */
export async function findQueue(store: Store, idOrName: string): Promise<ReviewQueueRow | null> {
  return (await store.review.getQueue(idOrName))
    ?? (await store.review.listQueues()).filter(q => q.name === idOrName).sort((a, b) => b.createdAt - a.createdAt)[0] ?? null
}

/** Each item's labels by reviewer, in the items' order. */
export function labelsByItem(items: readonly ReviewItemRow[], labels: readonly ReviewLabelRow[]): ItemLabels[] {
  const byItem = new Map<string, Record<string, string>>(items.map(item => [item.id, {}]))
  for (const label of labels) {
    const item = byItem.get(label.itemId)
    if (item) item[label.reviewer] = label.label
  }
  return [...byItem.values()]
}
