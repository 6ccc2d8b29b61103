import { JudgeflowError } from '../../errors'
import { normalize } from '../data'
import { defineScorer, textOf } from '../types'

export const exactMatch = defineScorer({
  type: 'exact-match',
  label: 'Exact match',
  description: 'The output equals the expected text (options: ignore_case, trim — on by default).',
  defaultThreshold: 1,
  score: (actual, expected, { options }) => (normalize(textOf(actual), options) === normalize(textOf(wanted(expected, options)), options) ? 1 : 0),
  details: (actual, expected, { options }) => ({ actual: textOf(actual).slice(0, 200), expected: textOf(wanted(expected, options)).slice(0, 200) }),
})

function wanted(expected: unknown, options: Record<string, unknown>): unknown {
  const value = expected ?? options.value
  if (value === undefined || value === null) throw new JudgeflowError('INVALID_INPUT', 'Scorer "exact-match": expected is missing: give input.expected or options.value.')
  return value
}
