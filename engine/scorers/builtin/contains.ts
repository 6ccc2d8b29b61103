import { normalize } from '../data'
import { defineScorer, optionOrExpected, textOf } from '../types'

/** The texts to look for: a list, or one text; none of them empty. */
function needles(values: unknown): string[] | undefined {
  const list = Array.isArray(values) ? values.map(textOf) : [textOf(values)]
  return list.length && list.every(Boolean) ? list : undefined
}

export const contains = defineScorer({
  type: 'contains',
  label: 'Contains',
  description: 'Share of the expected texts (options.values, or expected) found in the output.',
  defaultThreshold: 1,
  analyze(actual, expected, { options }) {
    const haystack = normalize(textOf(actual), options)
    const list = optionOrExpected(options, expected, ['values', 'value'], needles, 'Scorer "contains" needs the text(s) to look for')
    const missing = list.filter(n => !haystack.includes(normalize(n, options)))
    return { score: (list.length - missing.length) / list.length, missing }
  },
})
