import { JudgeflowError } from '../../errors'
import { normalize } from '../data'
import { defineScorer, oncePerRun, textOf, type ScorerContext } from '../types'

function needles(expected: unknown, options: Record<string, unknown>): string[] {
  const values = options.values ?? options.value ?? expected
  const list = Array.isArray(values) ? values.map(textOf) : [textOf(values)]
  if (!list.length || list.some(v => !v)) throw new JudgeflowError('INVALID_CONFIG', 'Scorer "contains" needs the text(s) to look for: options.values or expected.')
  return list
}

/** The needles not found in the output, looked for once per evaluation. */
function missingOf(actual: unknown, expected: unknown, ctx: ScorerContext) {
  return oncePerRun('contains', ctx, () => {
    const haystack = normalize(textOf(actual), ctx.options)
    const list = needles(expected, ctx.options)
    return { total: list.length, missing: list.filter(n => !haystack.includes(normalize(n, ctx.options))) }
  })
}

export const contains = defineScorer({
  type: 'contains',
  label: 'Contains',
  description: 'Share of the expected texts (options.values, or expected) found in the output.',
  defaultThreshold: 1,
  score(actual, expected, ctx) {
    const { total, missing } = missingOf(actual, expected, ctx)
    return (total - missing.length) / total
  },
  details: (actual, expected, ctx) => ({ missing: missingOf(actual, expected, ctx).missing }),
})
