import { JudgeflowError } from '../../errors'
import { defineScorer } from '../types'

/**
 * A small scorer of the kind users write: 1 up to `max_acceptable_ms` (options, 5,000 by
 * default), then a linear penalty reaching 0 at twice the limit.
 */
export const responseTime = defineScorer({
  type: 'response-time',
  label: 'Response time',
  description: 'Full marks up to max_acceptable_ms, then down linearly to 0 at twice that.',
  defaultThreshold: 0.5,
  input: 'json',
  analyze(actual, _expected, { options }) {
    const { ms, limit } = timing(actual, options)
    return { score: ms <= limit ? 1 : Math.max(0, 1 - (ms - limit) / limit), responseTimeMs: ms, maxAcceptableMs: limit, passed: ms <= limit }
  },
})

function timing(actual: unknown, options: Record<string, unknown>) {
  const ms = (actual as { durationMs?: unknown } | null)?.durationMs ?? (actual as { latency_ms?: unknown } | null)?.latency_ms
  if (typeof ms !== 'number' || ms < 0) throw new JudgeflowError('INVALID_INPUT', 'Scorer "response-time": actual.durationMs must be a number of milliseconds.')
  const limit = typeof options.max_acceptable_ms === 'number' && options.max_acceptable_ms > 0 ? options.max_acceptable_ms : 5000
  return { ms, limit }
}
