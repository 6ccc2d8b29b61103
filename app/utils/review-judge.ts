/**
 * The review page's reading of a queue's disagreements and of its judge re-run (DESIGN.md, "Human
 * review: annotation queues"): the API's answers as types, and the figures as text.
 */
import type { Disagreement } from '~~/core/review/disagreements'
import type { rejudgeQueue } from '~~/core/review/rejudge'
import { parseTypedJson } from '~~/engine/text/safe-json'
import { withCi } from '~/utils/review'

export type DisagreementView = Disagreement
export interface DisagreementsView { queue_id: string, items: Disagreement[] }
export type RejudgeView = Awaited<ReturnType<typeof rejudgeQueue>>
type Figures = RejudgeView['before']

/** Why the item is listed, in words. */
export const DISAGREEMENT_KIND_TEXT: Record<Disagreement['kinds'][number], string> = {
  people: 'reviewers differ', judge: 'the judge differs from the consensus', rejudged: 'the judge re-run differs from the consensus',
}

/** The consensus as text: its label with its votes, or why there is none. */
export function consensusText(consensus: Disagreement['consensus']): string {
  if (consensus.label !== null) return `${consensus.label} (${consensus.votes} of ${consensus.of})`
  return consensus.reason === 'tied' ? `tied${consensus.tied ? `: ${consensus.tied.join(' / ')}` : ''}` : 'no labels'
}

/** A judge's κ against the consensus, as the re-run reports it: `κ 0.40 (95 % CI …) over 3 items · judge 1a2b3c4d`. */
export function figuresText(figures: Figures): string {
  const judge = figures.fingerprint ? ` · judge ${figures.fingerprint.slice(0, 8)}` : ''
  return `κ ${withCi(figures.kappa, figures.kappa_ci)} over ${figures.compared} item${figures.compared === 1 ? '' : 's'}${judge}`
}

/** The evaluator config typed on the page: empty (the judge the items came from), an object, or what is wrong with it. */
export function rejudgeConfigOf(text: string): { config?: Record<string, unknown>, problem?: string } {
  if (!text.trim()) return {}
  let value: unknown
  try {
    value = parseTypedJson(text)
  }
  catch (error) {
    return { problem: `The evaluator config is not JSON: ${(error as Error).message}` }
  }
  return value !== null && typeof value === 'object' && !Array.isArray(value)
    ? { config: value as Record<string, unknown> }
    : { problem: 'The evaluator config must be a JSON object.' }
}
