import { jsonOf } from '../data'
import { defineScorer, textOf } from '../types'

export const jsonValid = defineScorer({
  type: 'json-valid',
  label: 'Valid JSON',
  description: 'The output is valid JSON (a fenced ```json block counts).',
  defaultThreshold: 1,
  analyze(actual) {
    const parsed = jsonOf(textOf(actual))
    return parsed.ok ? { score: 1, valid: true } : { score: 0, valid: false, error: parsed.error }
  },
})
