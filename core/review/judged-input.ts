/**
 * What the judge is given when it is re-run on a review item: the item keeps a snapshot of what was
 * judged, not the references of the step that judged it, so its fields are read back as an
 * evaluation's input.
 */
import { EVALUATION_INPUT_FIELDS } from '../../engine/schema/evaluator'
import type { ReviewItemRow } from '../review-rows'

const asText = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value))
const isRecord = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value)

/**
 * The evaluation input of an item: the input's own evaluation fields (a dataset case's `context`,
 * `reference`, …); its output as the `content` judged (the text the judge judged: a workflow's
 * answer, or an evaluator alone's case content), or as `actual` to a type that reads that (`reads`:
 * scorers); as `context`, when the input gives none, the input
 * itself when it is text (a span's question), else the item's context when it is text.
 */
export function judgedInput(
  item: Pick<ReviewItemRow, 'input' | 'output' | 'context'>, reads: readonly string[] = ['content'],
): Record<string, unknown> {
  const given: Record<string, unknown> = {}
  if (isRecord(item.input)) {
    for (const field of EVALUATION_INPUT_FIELDS) if (item.input[field] !== undefined) given[field] = item.input[field]
  }
  if (item.output !== null && item.output !== undefined) {
    // Scorers read the output as `actual`; every other type judges `content`.
    const as = !reads.includes('content') && reads.includes('actual') ? 'actual' : 'content'
    given[as] = as === 'actual' ? item.output : asText(item.output)
    if (as === 'content') delete given.submission
  }
  if (given.context === undefined && given.user_query === undefined) {
    if (typeof item.input === 'string' && item.input) given.context = item.input
    else if (typeof item.context === 'string' && item.context) given.context = item.context
  }
  for (const field of ['context', 'reference', 'content'] as const) {
    if (given[field] !== undefined && typeof given[field] !== 'string') given[field] = asText(given[field])
  }
  return given
}
