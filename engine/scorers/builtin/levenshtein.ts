import { normalize } from '../data'
import { defineScorer, textOf } from '../types'
import { levenshteinDistance } from '../../text/edit-distance'

export { levenshteinDistance }

function measure(actual: unknown, expected: unknown, options: Record<string, unknown>) {
  const max = typeof options.max_length === 'number' ? options.max_length : 5000
  const a = normalize(textOf(actual), options).slice(0, max)
  const b = normalize(textOf(expected ?? options.value), options).slice(0, max)
  const distance = levenshteinDistance(a, b)
  const longest = Math.max([...a].length, [...b].length)
  return { distance, similarity: longest ? Math.round((1 - distance / longest) * 1e6) / 1e6 : 1 }
}

export const levenshtein = defineScorer({
  type: 'levenshtein',
  label: 'Levenshtein similarity',
  description: '1 − edit distance / length of the longer text.',
  defaultThreshold: 0.8,
  measure(actual, expected, { options }) {
    const details = measure(actual, expected, options)
    return { score: details.similarity, details }
  },
})
