import { JudgeflowError } from '../../errors'
import { compilePattern } from '../../text/safe-regex'
import { defineScorer, textOf } from '../types'

/** Texts compared as given, or trimmed and/or case-folded by options. */
function normalize(text: string, options: Record<string, unknown>): string {
  let out = options.trim === false ? text : text.trim()
  if (options.ignore_case) out = out.toLowerCase()
  return out
}

export const exactMatch = defineScorer({
  type: 'exact-match',
  label: 'Exact match',
  description: 'The output equals the expected text (options: ignore_case, trim — on by default).',
  defaultThreshold: 1,
  score: (actual, expected, { options }) => (normalize(textOf(actual), options) === normalize(textOf(expected ?? options.value), options) ? 1 : 0),
  details: (actual, expected, { options }) => ({ actual: textOf(actual).slice(0, 200), expected: textOf(expected ?? options.value).slice(0, 200) }),
})

function needles(expected: unknown, options: Record<string, unknown>): string[] {
  const values = options.values ?? options.value ?? expected
  const list = Array.isArray(values) ? values.map(textOf) : [textOf(values)]
  if (!list.length || list.some(v => !v)) throw new JudgeflowError('INVALID_CONFIG', 'Scorer "contains" needs the text(s) to look for: options.values or expected.')
  return list
}

export const contains = defineScorer({
  type: 'contains',
  label: 'Contains',
  description: 'Share of the expected texts (options.values, or expected) found in the output.',
  defaultThreshold: 1,
  score(actual, expected, { options }) {
    const haystack = normalize(textOf(actual), options)
    const list = needles(expected, options)
    return list.filter(n => haystack.includes(normalize(n, options))).length / list.length
  },
  details(actual, expected, { options }) {
    const haystack = normalize(textOf(actual), options)
    return { missing: needles(expected, options).filter(n => !haystack.includes(normalize(n, options))) }
  },
})

function patternOf(expected: unknown, options: Record<string, unknown>): string {
  const pattern = options.pattern ?? expected
  if (typeof pattern !== 'string' || !pattern) throw new JudgeflowError('INVALID_CONFIG', 'Scorer "regex" needs a pattern: options.pattern or expected.')
  return pattern
}

export const regex = defineScorer({
  type: 'regex',
  label: 'Regex',
  description: 'The output matches a regular expression (RE2 syntax, linear time; option ignore_case).',
  defaultThreshold: 1,
  score: (actual, expected, { options }) => (compilePattern(patternOf(expected, options), { ignoreCase: options.ignore_case === true, field: 'regex scorer' }).test(textOf(actual)) ? 1 : 0),
  details(actual, expected, { options }) {
    const match = compilePattern(patternOf(expected, options), { ignoreCase: options.ignore_case === true, field: 'regex scorer' }).exec(textOf(actual))
    return { pattern: patternOf(expected, options), match: match?.match ?? null, index: match?.index ?? null }
  },
})

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
