import { normalize } from '../data'
import { defineScorer, textOf } from '../types'

/** Edit distance over code points, two rows of memory; texts are cut at `max_length` (5,000) characters. */
export function levenshteinDistance(a: string, b: string): number {
  const s = [...a]
  const t = [...b]
  if (!s.length) return t.length
  if (!t.length) return s.length
  let previous = Array.from({ length: t.length + 1 }, (_, j) => j)
  let current = new Array<number>(t.length + 1)
  for (let i = 1; i <= s.length; i++) {
    current[0] = i
    for (let j = 1; j <= t.length; j++) {
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (s[i - 1] === t[j - 1] ? 0 : 1))
    }
    [previous, current] = [current, previous]
  }
  return previous[t.length]!
}

function similarity(actual: unknown, expected: unknown, options: Record<string, unknown>) {
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
  score: (actual, expected, { options }) => similarity(actual, expected, options).similarity,
  details: (actual, expected, { options }) => similarity(actual, expected, options),
})
