import { JudgeflowError } from '../../errors'
import { normalize } from '../data'
import { defineScorer, textOf } from '../types'

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
  measure(actual, expected, { options }) {
    const haystack = normalize(textOf(actual), options)
    const list = needles(expected, options)
    const missing = list.filter(n => !haystack.includes(normalize(n, options)))
    return { score: (list.length - missing.length) / list.length, details: { missing } }
  },
})
