import { JudgeflowError } from '../../errors'
import { defineScorer } from '../types'

function numberOf(value: unknown, what: string): number {
  const n = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : typeof (value as { value?: unknown })?.value === 'number' ? (value as { value: number }).value : Number.NaN
  if (!Number.isFinite(n)) throw new JudgeflowError('INVALID_INPUT', `Scorer "numeric-diff": ${what} is ${JSON.stringify(value) ?? 'missing'}, not a number.`)
  return n
}

/** Within `tolerance` (absolute) scores 1; beyond it, 1 − relative difference, floored at 0. */
function compare(actual: unknown, expected: unknown, options: Record<string, unknown>) {
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
  score: (actual, expected, { options }) => compare(actual, expected, options).score,
  details: (actual, expected, { options }) => {
    const { score: _score, ...details } = compare(actual, expected, options)
    return details
  },
})

/**
 * The guide's worked example of a custom scorer: 1 up to `max_acceptable_ms` (options, 5,000 by
 * default), then a linear penalty reaching 0 at twice the limit.
 */
export const responseTime = defineScorer({
  type: 'response-time',
  label: 'Response time',
  description: 'Full marks up to max_acceptable_ms, then down linearly to 0 at twice that.',
  defaultThreshold: 0.5,
  score(actual, _expected, { options }) {
    const { ms, limit } = timing(actual, options)
    return ms <= limit ? 1 : Math.max(0, 1 - (ms - limit) / limit)
  },
  details(actual, _expected, { options }) {
    const { ms, limit } = timing(actual, options)
    return { responseTimeMs: ms, maxAcceptableMs: limit, passed: ms <= limit }
  },
})

function timing(actual: unknown, options: Record<string, unknown>) {
  const ms = (actual as { durationMs?: unknown } | null)?.durationMs ?? (actual as { latency_ms?: unknown } | null)?.latency_ms
  if (typeof ms !== 'number' || ms < 0) throw new JudgeflowError('INVALID_INPUT', 'Scorer "response-time": actual.durationMs must be a number of milliseconds.')
  const limit = typeof options.max_acceptable_ms === 'number' && options.max_acceptable_ms > 0 ? options.max_acceptable_ms : 5000
  return { ms, limit }
}
