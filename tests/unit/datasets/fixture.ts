import type { CaseResult, DatasetCase } from '../../../engine/datasets/schema'

/**
 * Six cases, each run twice (f never ran):
 *   a  billing            expected pass, score 0.9  runs pass 0.9 / pass 0.8        → passed, score 0.85
 *   b  billing            expected fail, score 0.3  runs pass 0.7 / fail 0.4        → failed (flaky), 0.55
 *   c  billing, refunds   expected fail             runs errored / pass 0.9         → errored
 *   d  refunds            expected pass, score 0.5  runs fail 0.3 / fail 0.2        → failed, 0.25
 *   e  —                  —                         runs pass 0.95 / pass 0.95      → passed, 0.95
 *   f  —                  —                         no run                          → none
 */
export const cases: DatasetCase[] = [
  { id: 'a', input: { q: 'a' }, tags: ['billing'], expected: { verdict: 'pass', score: 0.9 } },
  { id: 'b', input: { q: 'b' }, tags: ['billing'], expected: { verdict: 'fail', score: 0.3 } },
  { id: 'c', input: { q: 'c' }, tags: ['billing', 'refunds'], expected: { verdict: 'fail' } },
  { id: 'd', input: { q: 'd' }, tags: ['refunds'], expected: { verdict: 'pass', score: 0.5 } },
  { id: 'e', input: { q: 'e' } },
  { id: 'f', input: { q: 'f' } },
]

const run = (case_id: string, repeat: number, verdict: 'pass' | 'fail', score: number, confidence: number, latency_ms: number): CaseResult =>
  ({ case_id, repeat, status: 'succeeded', verdict, score, confidence, run_id: `${case_id}${repeat}`, latency_ms, tokens: { input: 10, output: 5 } })

/** In completion order, not case order. */
export const results: CaseResult[] = [
  run('a', 2, 'pass', 0.8, 0.85, 200),
  run('a', 1, 'pass', 0.9, 0.9, 100),
  run('b', 1, 'pass', 0.7, 0.5, 300),
  run('b', 2, 'fail', 0.4, 0.7, 400),
  { case_id: 'c', repeat: 1, status: 'errored', run_id: 'c1', latency_ms: 1000, error: 'provider down: 503 <Service & "Unavailable">' },
  run('c', 2, 'pass', 0.9, 0.9, 500),
  run('d', 1, 'fail', 0.3, 0.3, 600),
  run('d', 2, 'fail', 0.2, 0.3, 700),
  run('e', 1, 'pass', 0.95, 0.9, 800),
  run('e', 2, 'pass', 0.95, 0.9, 900),
]

export const dataset = { id: 'ds-1', name: 'support', version: 3, cases }
