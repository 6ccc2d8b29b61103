import { normalize } from '../data'
import { defineScorer, textOf } from '../types'

export const exactMatch = defineScorer({
  type: 'exact-match',
  label: 'Exact match',
  description: 'The output equals the expected text (options: ignore_case, trim — on by default).',
  defaultThreshold: 1,
  score: (actual, expected, { options }) => (normalize(textOf(actual), options) === normalize(textOf(expected ?? options.value), options) ? 1 : 0),
  details: (actual, expected, { options }) => ({ actual: textOf(actual).slice(0, 200), expected: textOf(expected ?? options.value).slice(0, 200) }),
})
