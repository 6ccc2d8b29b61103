import { JudgeflowError } from '../../errors'
import { normalize } from '../data'
import { defineScorer, textOf } from '../types'

export const exactMatch = defineScorer({
  type: 'exact-match',
  label: 'Exact match',
  description: 'The output equals the expected text (options: ignore_case, trim — on by default).',
  defaultThreshold: 1,
  analyze(actual, expected, { options }) {
    const given = textOf(actual)
    const want = textOf(wanted(expected, options))
    return { score: normalize(given, options) === normalize(want, options) ? 1 : 0, actual: given.slice(0, 200), expected: want.slice(0, 200) }
  },
})

function wanted(expected: unknown, options: Record<string, unknown>): unknown {
  const value = expected ?? options.value
  if (value === undefined || value === null) throw new JudgeflowError('INVALID_INPUT', 'Scorer "exact-match": expected is missing: give input.expected or options.value.')
  return value
}
