import { JudgeflowError } from '../../errors'
import { compilePattern } from '../../text/safe-regex'
import { defineScorer, textOf } from '../types'

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
  measure(actual, expected, { options }) {
    const pattern = patternOf(expected, options)
    const match = compilePattern(pattern, { ignoreCase: options.ignore_case === true, field: 'regex scorer' }).exec(textOf(actual))
    return { score: match ? 1 : 0, details: { pattern, match: match?.match ?? null, index: match?.index ?? null } }
  },
})
