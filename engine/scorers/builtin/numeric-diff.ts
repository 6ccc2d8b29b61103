import { JudgeflowError } from '../../errors'
import { defineScorer, type ScorerContext } from '../types'

function numberOf(value: unknown, what: string): number {
  const n = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : typeof (value as { value?: unknown })?.value === 'number' ? (value as { value: number }).value : Number.NaN
  if (!Number.isFinite(n)) throw new JudgeflowError('INVALID_INPUT', `Scorer "numeric-diff": ${what} is ${JSON.stringify(value) ?? 'missing'}, not a number.`)
  return n
}

/** Within `tolerance` (absolute) scores 1; beyond it, 1 − relative difference, floored at 0. */
function compare(actual: unknown, expected: unknown, { options }: ScorerContext) {
  const a = numberOf(actual, 'actual')
  const e = numberOf(expected ?? options.value, 'expected')
  const diff = Math.abs(a - e)
  const tolerance = typeof options.tolerance === 'number' ? options.tolerance : 0
  const relative = diff / Math.max(Math.abs(e), Number.EPSILON)
  const score = diff <= tolerance ? 1 : Math.max(0, Math.round((1 - relative) * 1e6) / 1e6)
  return { score, actual: a, expected: e, diff, relative_diff: Math.round(relative * 1e6) / 1e6, tolerance }
}

export const numericDiff = defineScorer({
  type: 'numeric-diff',
  label: 'Numeric difference',
  description: '1 within the tolerance, else 1 − |actual − expected| / |expected|.',
  defaultThreshold: 0.9,
  analyze: compare,
})
