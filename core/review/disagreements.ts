/**
 * Where people and the judge part (DESIGN.md, "Human review: annotation queues"): the queue's items
 * whose reviewers gave different labels, or whose consensus is not the judge's verdict, with what
 * each reviewer said, the consensus, the judge's verdict and reason — and the judge's verdict once
 * re-run on the item (core/review/rejudge.ts), beside the verdict it had when it was added.
 */
import { consensusOf, type Consensus } from '../../engine/review/agreement'
import type { ReviewItemRow, ReviewJudge, ReviewLabelRow, ReviewRejudgement } from '../review-rows'
import { labelsByItem } from './calibration'

/** Why an item is on the list: its reviewers differ among themselves, the judge differs from their consensus, or the judge re-run does. */
export type DisagreementKind = 'people' | 'judge' | 'rejudged'

export interface Disagreement {
  item_id: string
  position: number
  source: ReviewItemRow['source']
  input: unknown
  output: unknown
  context: unknown
  /** Each reviewer's label, by reviewer name. */
  labels: Array<{ reviewer: string, label: string, score: number | null, comment: string | null }>
  consensus: Consensus
  /** The judge's verdict when the item was added. */
  judge: Pick<ReviewJudge, 'verdict' | 'score' | 'reason' | 'fingerprint'> | null
  /** The judge's newest verdict once re-run on the item, if it was. */
  rejudged: ReviewRejudgement | null
  kinds: DisagreementKind[]
}

/** The newest re-judgement of the item, or the one under `fingerprint`. */
export function rejudgementOf(item: Pick<ReviewItemRow, 'judge'>, fingerprint?: string): ReviewRejudgement | null {
  const all = item.judge?.rejudged ?? []
  return (fingerprint === undefined ? all.at(-1) : all.find(r => r.fingerprint === fingerprint)) ?? null
}

/** The queue's items where people and the judge part, in the queue's order. */
export function disagreementsOf(items: readonly ReviewItemRow[], labels: readonly ReviewLabelRow[]): Disagreement[] {
  const perItem = labelsByItem(items, labels)
  return items.flatMap((item, i) => {
    const given = labels.filter(l => l.itemId === item.id)
    const consensus = consensusOf(perItem[i]!)
    const verdict = item.judge?.verdict ?? null
    const rejudged = rejudgementOf(item)
    const kinds: DisagreementKind[] = []
    if (new Set(given.map(l => l.label)).size > 1) kinds.push('people')
    if (consensus.label !== null && verdict !== null && verdict !== consensus.label) kinds.push('judge')
    if (consensus.label !== null && typeof rejudged?.verdict === 'string' && rejudged.verdict !== consensus.label) kinds.push('rejudged')
    if (!kinds.length) return []
    const judge = item.judge && { verdict: item.judge.verdict, score: item.judge.score, reason: item.judge.reason, fingerprint: item.judge.fingerprint }
    return [{
      item_id: item.id, position: item.position, source: item.source, input: item.input, output: item.output, context: item.context,
      labels: given.map(l => ({ reviewer: l.reviewer, label: l.label, score: l.score, comment: l.comment })),
      consensus, judge, rejudged, kinds,
    }]
  })
}
