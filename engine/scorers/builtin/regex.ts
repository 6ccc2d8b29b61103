import { compilePattern } from '../../text/safe-regex'
import { regexScorerFlags } from '../patterns'
import { defineScorer, optionOrExpected, textOf } from '../types'

const patternOf = (value: unknown) => (typeof value === 'string' && value ? value : undefined)

export const regex = defineScorer({
  type: 'regex',
  label: 'Regex',
  description: 'The output matches a regular expression (RE2 syntax, linear time; option ignore_case).',
  defaultThreshold: 1,
  analyze(actual, expected, { options }) {
    const pattern = optionOrExpected(options, expected, ['pattern'], patternOf, 'Scorer "regex" needs a pattern')
    const match = compilePattern(pattern, { ...regexScorerFlags(options), field: 'regex scorer' }).exec(textOf(actual))
    return { score: match ? 1 : 0, pattern, match: match?.match ?? null, index: match?.index ?? null }
  },
})
