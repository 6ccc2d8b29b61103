/**
 * The review pages' reading of the API (DESIGN.md, "Human review: annotation queues"): the queue
 * form's body, the keys a reviewer labels with, an item's values as text, the figures of agreement.
 */
import type { presentItem, presentLabel, presentQueue, queueAgreement } from '~~/core/review/queues'
import { MAX_RUBRIC_LABELS } from '~~/engine/review/schema'

/** A queue as the API answers it (its presenter, whose times are ISO text already). */
export type QueueView = ReturnType<typeof presentQueue>
export type QueueProgress = NonNullable<QueueView['progress']>
export type ReviewItemView = ReturnType<typeof presentItem>
export type LabelView = ReturnType<typeof presentLabel>
export type AgreementView = ReturnType<typeof queueAgreement> & { queue_id: string }

export const SELECTIONS = ['all', 'failed', 'disagreeing', 'low_confidence', 'sample'] as const
export type Selection = typeof SELECTIONS[number]
export const SELECTION_TEXT: Record<Selection, string> = {
  all: 'every judged case', failed: 'cases the judge failed', disagreeing: 'cases its judges or repeats disagree on',
  low_confidence: 'cases the judge was unsure of', sample: 'a random sample',
}

/** The new-queue form's fields, as typed. */
export interface QueueDraft {
  name: string
  datasetRunId: string
  select: Selection
  sampleSize: string
  maxConfidence: string
  labels: string
  reviewersPerItem: string
  score: boolean
  comment: boolean
  showJudge: boolean
  instructions: string
}

export function emptyQueueDraft(): QueueDraft {
  return {
    name: '', datasetRunId: '', select: 'all', sampleSize: '20', maxConfidence: '0.6', labels: 'pass, fail',
    reviewersPerItem: '2', score: false, comment: true, showJudge: false, instructions: '',
  }
}

/** Text as the number the API takes, or the text itself for the API to refuse by name. */
const numberOr = (text: string): number | string => (text.trim() !== '' && Number.isFinite(Number(text)) ? Number(text) : text)

/** The rubric's labels as typed: split on commas, blanks left out. */
export const labelsOf = (text: string) => text.split(',').map(l => l.trim()).filter(Boolean)

/** The body of POST /api/queues: the queue, with its items from the dataset run the form names. */
export function queueBody(draft: QueueDraft) {
  const items: Record<string, unknown> = { from: 'dataset_run', dataset_run_id: draft.datasetRunId, select: draft.select }
  if (draft.select === 'sample') items.sample_size = numberOr(draft.sampleSize)
  if (draft.select === 'low_confidence') items.max_confidence = numberOr(draft.maxConfidence)
  return {
    name: draft.name, rubric: { labels: labelsOf(draft.labels), score: draft.score, comment: draft.comment },
    instructions: draft.instructions.trim() || null, reviewers_per_item: numberOr(draft.reviewersPerItem),
    show_judge: draft.showJudge, items,
  }
}

/** A refusal as text: each problem with the field it names (`rubric.labels: must offer at least 2 labels`), else the message. */
export function refusalText(error: unknown): string {
  const body = (error as { data?: { message?: string, data?: { problems?: Array<{ path: string, message: string }> } } }).data
  const problems = body?.data?.problems ?? []
  if (problems.length) return problems.map(p => (p.path ? `${p.path}: ${p.message}` : p.message)).join('; ')
  return body?.message ?? (error as Error).message ?? String(error)
}

export type ReviewAction
  = | { kind: 'label', index: number }
    | { kind: 'submit' | 'skip' | 'next' | 'previous' | 'help' | 'close' }

/** Whether the key went to a field the reviewer types in (the comment, their name): the shortcuts leave it alone. */
export function isTyping(target: EventTarget | null): boolean {
  const el = target as HTMLElement | null
  if (!el || typeof el.tagName !== 'string') return false
  if (el.isContentEditable) return true
  if (el.tagName === 'TEXTAREA' || el.tagName === 'SELECT') return true
  return el.tagName === 'INPUT' && !['checkbox', 'radio', 'button', 'submit'].includes((el as HTMLInputElement).type)
}

/** A button or link other than a label's (marked `data-review-label`): Enter presses it. */
function activates(target: EventTarget | null): boolean {
  const el = target as HTMLElement | null
  if (!el || (el.tagName !== 'BUTTON' && el.tagName !== 'A')) return false
  return el.dataset?.reviewLabel === undefined
}

export interface KeyPress { key: string, ctrlKey?: boolean, metaKey?: boolean, altKey?: boolean, target?: EventTarget | null }

/**
 * What a key does on the review page: 1–9 pick the rubric's label of that number, Enter submits, s skips,
 * j / k the next / previous item, ? the keys, Escape closes them. Nothing while typing, nor with a modifier.
 */
export function reviewAction(key: KeyPress, labels: number): ReviewAction | null {
  if (key.ctrlKey || key.metaKey || key.altKey || isTyping(key.target ?? null)) return null
  if (/^[1-9]$/.test(key.key)) {
    const index = Number(key.key) - 1
    return index < Math.min(labels, MAX_RUBRIC_LABELS) ? { kind: 'label', index } : null
  }
  switch (key.key) {
    // Enter on a button or a link presses it, as everywhere; on a label's button it submits the label.
    case 'Enter': return activates(key.target ?? null) ? null : { kind: 'submit' }
    case 's': return { kind: 'skip' }
    case 'j': return { kind: 'next' }
    case 'k': return { kind: 'previous' }
    case '?': return { kind: 'help' }
    case 'Escape': return { kind: 'close' }
    default: return null
  }
}

/**
 * A value of an item (its input, output, context) as the page shows it: text as it is, fields of one
 * line each as `name: value` lines, anything else as indented JSON.
 */
export function shownValue(value: unknown): string {
  if (value === null || value === undefined) return ''
  if (typeof value === 'string') return value
  if (typeof value === 'object' && !Array.isArray(value)) {
    const entries = Object.entries(value as Record<string, unknown>)
    const oneLine = (x: unknown) => ['number', 'boolean'].includes(typeof x) || (typeof x === 'string' && !x.includes('\n'))
    if (entries.length && entries.every(([, x]) => oneLine(x))) return entries.map(([k, x]) => `${k}: ${String(x)}`).join('\n')
  }
  return JSON.stringify(value, null, 2)
}

/** The item's input without the context it carries (shown in its own panel). */
export function inputWithoutContext(input: unknown, context: unknown): unknown {
  if (context === null || !input || typeof input !== 'object' || Array.isArray(input)) return input
  const { context: _context, ...rest } = input as Record<string, unknown>
  const keys = Object.keys(rest)
  return keys.length === 0 ? null : keys.length === 1 ? rest[keys[0]!] : rest
}

/** A figure with its 95 % interval: `0.50 (95 % CI 0.10 – 0.85)`; a dash where it is not defined. */
export function withCi(value: number | null, ci: readonly [number, number] | null | undefined): string {
  if (value === null) return '—'
  return ci ? `${value.toFixed(2)} (95 % CI ${ci[0].toFixed(2)} – ${ci[1].toFixed(2)})` : `${value.toFixed(2)} (no interval)`
}

/** The confusion matrix's labels: the rubric's first, then any other the judge or people gave, so the table is square. */
export function confusionLabels(confusion: Record<string, Record<string, number>>, rubric: readonly string[]): string[] {
  const seen = new Set(rubric)
  for (const [row, cells] of Object.entries(confusion)) {
    seen.add(row)
    for (const col of Object.keys(cells)) seen.add(col)
  }
  return [...seen]
}

export const REVIEWER_KEY = 'judgeflow.reviewer'
