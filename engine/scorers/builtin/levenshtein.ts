import { normalize } from '../data'
import { defineScorer, oncePerRun, textOf, type ScorerContext } from '../types'

const codePoints = (text: string) => Uint32Array.from(text, char => char.codePointAt(0)!)

/** Edit distance over code points, two rows of memory; texts are cut at `max_length` (5,000) characters. */
export function levenshteinDistance(a: string, b: string): number {
  const s = codePoints(a)
  const t = codePoints(b)
  if (!s.length) return t.length
  if (!t.length) return s.length
  let previous = Uint32Array.from({ length: t.length + 1 }, (_, j) => j)
  let current = new Uint32Array(t.length + 1)
  for (let i = 1; i <= s.length; i++) {
    current[0] = i
    const char = s[i - 1]
    for (let j = 1; j <= t.length; j++) {
      let best = previous[j - 1]! + (char === t[j - 1] ? 0 : 1)
      if (previous[j]! + 1 < best) best = previous[j]! + 1
      if (current[j - 1]! + 1 < best) best = current[j - 1]! + 1
      current[j] = best
    }
    [previous, current] = [current, previous]
  }
  return previous[t.length]!
}

function similarity(actual: unknown, expected: unknown, ctx: ScorerContext) {
  return oncePerRun('levenshtein', ctx, () => measure(actual, expected, ctx.options))
}

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
  score: (actual, expected, ctx) => similarity(actual, expected, ctx).similarity,
  details: (actual, expected, ctx) => similarity(actual, expected, ctx),
})
