import { jsonOf } from '../data'
import { defineScorer, textOf } from '../types'

export const jsonValid = defineScorer({
  type: 'json-valid',
  label: 'Valid JSON',
  description: 'The output is valid JSON (a fenced ```json block counts).',
  defaultThreshold: 1,
  score: actual => (jsonOf(textOf(actual)).ok ? 1 : 0),
  details: (actual) => {
    const parsed = jsonOf(textOf(actual))
    return parsed.ok ? { valid: true } : { valid: false, error: parsed.error }
  },
})
