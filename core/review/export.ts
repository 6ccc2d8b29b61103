/**
 * Labels as data (DESIGN.md, "Human review: annotation queues"): a queue's consensus as the
 * datasets hold people's judgement — `expected.verdict` where the consensus label is pass or fail,
 * `expected.score` the mean of the 0–1 scores reviewers gave the item — written as a new version of
 * a dataset, or printed by `judgeflow review export`.
 */
import { stringify as stringifyCsv } from 'csv-stringify/sync'
import { neutraliseCell } from '../../engine/datasets/csv-cells'
import { consensusOf } from '../../engine/review/agreement'
import { datasetCaseSchema, verdicts, type DatasetCase, type Expected } from '../../engine/datasets/schema'
import { round4 } from '../../engine/datasets/stats'
import { JudgeflowError } from '../../engine/errors'
import type { ReviewItemRow, ReviewLabelRow, ReviewQueueRow } from '../review-rows'
import type { Store } from '../store'
import { labelsByItem } from './calibration'

/** An item people agree on, as exported: where it came from, what was judged, the judge's verdict and the consensus. */
export interface LabelledItem {
  item_id: string
  /** The dataset case id it is written as: the source case's, else `<queue name>-<position>`. */
  case_id: string
  source: ReviewItemRow['source']
  input: unknown
  output: unknown
  judge_verdict: string | null
  consensus: string
  votes: number
  reviewers: number
  expected_verdict: Expected['verdict'] | null
  expected_score: number | null
}

const isVerdict = (label: string): label is NonNullable<Expected['verdict']> => (verdicts as readonly string[]).includes(label)

/** The queue's items with a consensus, in its order; items tied or unlabelled are not there. */
export function labelledItems(queue: ReviewQueueRow, items: readonly ReviewItemRow[], labels: readonly ReviewLabelRow[]): LabelledItem[] {
  const perItem = labelsByItem(items, labels)
  return items.flatMap((item, i) => {
    const consensus = consensusOf(perItem[i]!)
    if (consensus.label === null) return []
    const scores = labels.filter(l => l.itemId === item.id && l.score !== null).map(l => l.score!)
    return [{
      item_id: item.id,
      case_id: item.source.kind === 'dataset_run_case' ? item.source.case_id : `${queue.name}-${item.position}`,
      source: item.source, input: item.input, output: item.output, judge_verdict: item.judge?.verdict ?? null,
      consensus: consensus.label, votes: consensus.votes, reviewers: consensus.of,
      expected_verdict: isVerdict(consensus.label) ? consensus.label : null,
      expected_score: scores.length ? round4(scores.reduce((a, b) => a + b, 0) / scores.length) : null,
    }]
  })
}

export const LABELLED_CSV_COLUMNS = ['item_id', 'case_id', 'input', 'output', 'judge_verdict', 'consensus', 'votes', 'reviewers', 'expected_verdict', 'expected_score'] as const

const cell = (value: unknown) => neutraliseCell(value === null || value === undefined ? '' : typeof value === 'string' ? value : JSON.stringify(value))

/** The labelled items as CSV, one a row (input and output that are not text as JSON; no cell opens a formula), or JSONL, one item a line. */
export function labelledItemsText(items: readonly LabelledItem[], format: 'jsonl' | 'csv'): string {
  if (format === 'jsonl') return items.map(item => `${JSON.stringify(item)}\n`).join('')
  return stringifyCsv([[...LABELLED_CSV_COLUMNS], ...items.map(item => LABELLED_CSV_COLUMNS.map(column => cell(item[column])))])
}

/** The item as a dataset case: its input (text as `content`, as an evaluator judged alone reads it), its output recorded, what people expect. */
function asCase(item: LabelledItem): DatasetCase | null {
  const expected: Expected = {
    ...(item.expected_verdict ? { verdict: item.expected_verdict } : {}),
    ...(item.expected_score === null ? {} : { score: item.expected_score }),
  }
  if (!Object.keys(expected).length) return null
  const input = item.input !== null && typeof item.input === 'object' && !Array.isArray(item.input) ? item.input : { content: item.input ?? '' }
  const output = item.output === null || item.output === undefined ? {} : { output: item.output }
  const parsed = datasetCaseSchema.safeParse({ id: item.case_id, input, expected, ...output })
  return parsed.success ? parsed.data : null
}

export interface QueueExport {
  dataset: { id: string, name: string, version: number }
  /** Cases whose expected came from the queue: added, or already in the dataset and given people's consensus. */
  written: number
  /** Items people agree on that could not be a case: a label neither pass nor fail with no score, or an input a case cannot hold. */
  left_out: number
}

/**
 * Writes the queue's consensus into the dataset named (its id or name) as a new version: a case of
 * the same id gets the consensus as its `expected`, the others are added after the dataset's cases.
 * A dataset not there is created with these cases.
 */
export async function exportQueueLabels(store: Store, queue: ReviewQueueRow, datasetName: string): Promise<QueueExport> {
  const labelled = labelledItems(queue, await store.review.items(queue.id), await store.review.labels(queue.id))
  const cases = labelled.map(asCase).filter((c): c is DatasetCase => c !== null)
  const left_out = labelled.length - cases.length
  if (!cases.length) throw new JudgeflowError('INVALID_INPUT', `queue ${queue.name} has no item people agree on that a dataset case can hold (a pass or fail label, or a score)`)
  const found = (await store.datasets.get(datasetName)) ?? await store.datasets.findByName(datasetName)
  if (!found) {
    const created = await store.datasets.create(datasetName, cases)
    return { dataset: { id: created.id, name: created.name, version: created.currentVersion }, written: cases.length, left_out }
  }
  const current = ((await store.datasets.get(found.id))?.cases ?? []) as DatasetCase[]
  const byId = new Map(cases.map(c => [c.id, c]))
  const merged = current.map((c) => {
    const labelledCase = byId.get(c.id)
    byId.delete(c.id)
    return labelledCase ? { ...c, expected: { ...c.expected, ...labelledCase.expected } } : c
  })
  const updated = (await store.datasets.update(found.id, { cases: [...merged, ...byId.values()] }))!
  return { dataset: { id: updated.id, name: updated.name, version: updated.currentVersion }, written: cases.length, left_out }
}
