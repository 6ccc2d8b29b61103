/**
 * Review queues as the API shows them (snake_case, as DESIGN.md names the fields), and a queue's
 * agreement: people among themselves, then the judge against their consensus.
 */
import { consensusOf, peopleAgreement, type Measured } from '../../engine/review/agreement'
import type { ReviewQueueInput } from '../../engine/review/schema'
import { round4, roundInterval, type BootstrapOptions } from '../../engine/datasets/stats'
import { comparable, itemsHash, judgeAgainstConsensus, labelsByItem } from './calibration'
import type { NewReviewQueue, ReviewItemRow, ReviewLabelRow, ReviewProgress, ReviewQueueRow } from '../review-rows'

const iso = (ms: number) => new Date(ms).toISOString()

export function queueFields(input: ReviewQueueInput): NewReviewQueue {
  return {
    name: input.name, rubric: input.rubric, instructions: input.instructions, reviewersPerItem: input.reviewers_per_item,
    leaseMinutes: input.lease_minutes, showJudge: input.show_judge,
  }
}

export function presentQueue(row: ReviewQueueRow, progress?: ReviewProgress) {
  return {
    id: row.id, name: row.name, rubric: row.rubric, instructions: row.instructions, reviewers_per_item: row.reviewersPerItem,
    lease_minutes: row.leaseMinutes, show_judge: row.showJudge, created_at: iso(row.createdAt), updated_at: iso(row.updatedAt),
    ...(progress ? { progress: presentProgress(progress) } : {}),
  }
}

export const presentProgress = (progress: ReviewProgress) => ({ items: progress.items, complete: progress.complete, by_reviewer: progress.byReviewer })

/** An item as a reviewer is handed it: never with other reviewers' labels, and the judge's verdict only where the queue shows it. */
export function presentItem(item: ReviewItemRow, queue: Pick<ReviewQueueRow, 'showJudge'>) {
  return {
    id: item.id, queue_id: item.queueId, position: item.position, source: item.source,
    input: item.input, output: item.output, context: item.context, judge: queue.showJudge ? item.judge : null,
  }
}

export function presentLabel(row: ReviewLabelRow) {
  return {
    item_id: row.itemId, queue_id: row.queueId, reviewer: row.reviewer, label: row.label, score: row.score, comment: row.comment,
    created_at: iso(row.createdAt), updated_at: iso(row.updatedAt),
  }
}

const rounded = (m: Measured) => ({ value: m.value === null ? null : round4(m.value), ci: roundInterval(m.ci), items: m.items })

/**
 * The queue's agreement. People: Cohen's κ for two reviewers, Fleiss' κ for more, and Krippendorff's α
 * (missing labels allowed), each with its bootstrap 95 % interval. The consensus: the label most
 * reviewers gave, none on a tie. The judge: its verdict on the items with a consensus, Cohen's κ
 * against the consensus with the confusion matrix (consensus label by judge verdict) and the share alike.
 */
export function queueAgreement(items: readonly ReviewItemRow[], labels: readonly ReviewLabelRow[], bootstrap: BootstrapOptions = {}) {
  const perItem = labelsByItem(items, labels)
  const people = peopleAgreement(perItem, bootstrap)
  const consensus = perItem.map(consensusOf)
  const compared = comparable(items, labels)
  const fingerprints = new Set(compared.map(c => c.item.judge?.fingerprint ?? null))
  const judge = judgeAgainstConsensus(compared, bootstrap)
  const [fingerprint] = fingerprints
  return {
    items: items.length,
    labelled_items: perItem.filter(item => Object.keys(item).length > 0).length,
    people: {
      reviewers: people.reviewers,
      kappa: people.kappa && { kind: people.kappa.kind, ...rounded(people.kappa) },
      alpha: rounded(people.alpha),
    },
    consensus: {
      agreed: consensus.filter(c => c.label !== null).length,
      tied: consensus.filter(c => c.label === null && c.reason === 'tied').length,
      unlabelled: consensus.filter(c => c.label === null && c.reason === 'no labels').length,
    },
    judge: {
      /** The judge these figures are of: shared by every item compared; null when they differ or none kept one. */
      fingerprint: fingerprints.size === 1 ? fingerprint ?? null : null,
      compared: compared.length,
      /** The item set compared (core/review/calibration.ts), as a calibration from the queue is bound to it. */
      items_hash: itemsHash(compared),
      kappa: judge.kappa,
      kappa_ci: judge.kappa_ci,
      accuracy: compared.length ? round4(compared.filter(c => c.verdict === c.consensus).length / compared.length) : null,
      confusion: judge.confusion,
    },
  }
}
