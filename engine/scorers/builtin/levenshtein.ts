import { normalize } from '../data'
import { defineScorer, textOf } from '../types'
import { levenshteinDistance } from '../../text/edit-distance'

export { levenshteinDistance }

export const levenshtein = defineScorer({
  type: 'levenshtein',
  label: 'Levenshtein similarity',
  description: '1 − edit distance / length of the longer text.',
  defaultThreshold: 0.8,
  analyze(actual, expected, { options }) {
    const max = typeof options.max_length === 'number' ? options.max_length : 5000
    const a = normalize(textOf(actual), options).slice(0, max)
    const b = normalize(textOf(expected ?? options.value), options).slice(0, max)
    const distance = levenshteinDistance(a, b)
    const longest = Math.max([...a].length, [...b].length)
    const similarity = longest ? Math.round((1 - distance / longest) * 1e6) / 1e6 : 1
    return { score: similarity, distance, similarity }
  },
})
