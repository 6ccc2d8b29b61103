import { describe, expect, it, vi } from 'vitest'
import { createProviders, evaluate } from '../../../engine'

const providers = createProviders({ env: {} })
const financeTrace = {
  metadata: { task_domain: 'finance', success: true },
  task: { objective: 'Analyze TSMC Q4 earnings report' },
  steps: [
    { step_id: 0, type: 'thought', content: 'Extracting revenue and margin data' },
    { step_id: 1, type: 'tool_call', tool: { name: 'financial_data_api' }, input: { ticker: 'TSM' } },
    { step_id: 2, type: 'observation', content: 'Revenue: $26.3B, up 14.3% YoY' },
    { step_id: 3, type: 'tool_call', tool: { name: 'comparison_tool' }, input: { metric: 'gross_margin' } },
    { step_id: 4, type: 'observation', content: 'Gross margin 57.9%, above industry average' },
  ],
  outcome: { result_summary: 'Strong quarter', confidence: 0.92 },
}

describe('the trace evaluation type', () => {
  it('scores the hand-worked finance example through the evaluator: 0.724 on a fresh cache', async () => {
    const result = await evaluate({ evaluation_type: 'trace', pass_threshold: 0.7, trace: { fresh_cache: true } }, { trace: financeTrace }, { providers })
    expect(result).toMatchObject({ passed: true, overall_score: 0.724, trace: { C: 0.425, N: 0.5, D: 1, O: 0.92, profile: 'finance', overrides: [] } })
    expect(result.criteria_scores).toEqual({ complexity: 0.425, novelty: 0.5, tool_diversity: 1, outcome_confidence: 0.92 })
  })

  it('with no embedder configured, novelty is 0.5 every time', async () => {
    const trace = { ...financeTrace, task: { objective: `unique objective ${Math.random()}` } }
    const results = [await evaluate({ evaluation_type: 'trace' }, { trace }, { providers }), await evaluate({ evaluation_type: 'trace' }, { trace }, { providers })]
    for (const result of results) {
      expect(result).toMatchObject({ overall_score: 0.724, trace: { N: 0.5, novelty_source: 'default', embedder: 'none' } })
      expect(result.criteria_reasons.novelty).toBe('no embedder configured (0.5)')
    }
  })

  it('with the hashed embedder, shares the novelty cache across evaluations unless a fresh one is asked for', async () => {
    const trace = { ...financeTrace, task: { objective: `unique objective ${Math.random()}` } }
    const hashed = { evaluation_type: 'trace', trace: { embedder: 'hashed' } }
    await evaluate(hashed, { trace }, { providers })
    const again = await evaluate(hashed, { trace }, { providers })
    // N 0.5 → 0 on the finance profile (wN 0.25): 0.724 − 0.125
    expect(again).toMatchObject({ overall_score: 0.599, trace: { N: 0, embedder: 'hashed-ngram-384', cache: { fresh: false, ttl_ms: 3_600_000, size: 1000 } } })
    const fresh = await evaluate({ evaluation_type: 'trace', trace: { embedder: 'hashed', fresh_cache: true } }, { trace }, { providers })
    expect(fresh.trace!.N).toBe(0.5)
  })

  it('compares only with the traces within the config\'s cache_size and cache_ttl_ms', async () => {
    // Traces of random words: the hashed vectors of two of them are close to orthogonal (N near 1, far above 0.6).
    const words = () => Array.from({ length: 8 }, () => Math.random().toString(36).slice(2)).join(' ')
    const distinct = () => ({ metadata: { success: true }, task: { objective: words() }, steps: [{ type: 'thought', content: words() }], outcome: { confidence: 0.5 } })
    const novelty = async (trace: object, window: object = {}) => (await evaluate({ evaluation_type: 'trace', trace: { embedder: 'hashed', ...window } }, { trace }, { providers })).trace!.N as number
    const [x, y, z] = [distinct(), distinct(), distinct()]
    for (const trace of [x, y, z]) await novelty(trace)
    expect(await novelty(x, { cache_size: 2 })).toBeGreaterThan(0.6) // the newest two are y and z
    expect(await novelty(z, { cache_size: 2 })).toBe(0) // now z and x
    vi.useFakeTimers({ now: Date.now(), toFake: ['Date'] })
    try {
      const [m, n, o] = [distinct(), distinct(), distinct()]
      await novelty(m)
      await novelty(o)
      vi.advanceTimersByTime(60_000)
      await novelty(n)
      expect(await novelty(m, { cache_ttl_ms: 30_000 })).toBeGreaterThan(0.6) // m was scored 60 s ago: only n is that recent
      expect(await novelty(o, { cache_ttl_ms: 120_000 })).toBe(0)
    }
    finally {
      vi.useRealTimers()
    }
  })

  it('refuses a window wider than the process keeps, naming the setting and the variable', async () => {
    await expect(evaluate({ evaluation_type: 'trace', trace: { embedder: 'hashed', cache_ttl_ms: 7_200_000, cache_size: 5000 } }, { trace: financeTrace }, { providers }))
      .rejects.toThrow('Invalid evaluator config: trace.cache_ttl_ms: is longer than this process keeps traces (JUDGEFLOW_TRACE_CACHE_TTL_MS, 3600000): lower it or raise the variable; trace.cache_size: is more traces than this process keeps (JUDGEFLOW_TRACE_CACHE_SIZE, 1000): lower it or raise the variable.')
    await expect(evaluate({ evaluation_type: 'trace', trace: { cache_size: 0 } }, { trace: financeTrace }, { providers })).rejects.toThrow('trace.cache_size: must be at least 1')
  })

  it('uses a custom profile from the config, and refuses one whose weights do not sum to 1.0', async () => {
    const legal = { ...financeTrace, metadata: { task_domain: 'legal', success: true } }
    const weights = { complexity: 0.1, novelty: 0.1, tool_diversity: 0.1, outcome_confidence: 0.7 }
    const result = await evaluate({ evaluation_type: 'trace', trace: { fresh_cache: true, profiles: { legal: weights } } }, { trace: legal }, { providers })
    // 0.425·0.1 + 0.5·0.1 + 1·0.1 + 0.92·0.7 = 0.8365
    expect(result.trace).toMatchObject({ profile: 'legal', score: 0.8365 })
    await expect(evaluate({ evaluation_type: 'trace', trace: { profiles: { legal: { ...weights, outcome_confidence: 0.6 } } } }, { trace: legal }, { providers }))
      .rejects.toThrow('Invalid evaluator config: trace.profiles.legal: weights must sum to 1.0, not 0.9.')
  })

  it('names what is wrong with the trace', async () => {
    const { steps: _steps, ...noSteps } = financeTrace
    await expect(evaluate({ evaluation_type: 'trace' }, { trace: noSteps }, { providers })).rejects.toThrow('Invalid trace: steps: is required')
    await expect(evaluate({ evaluation_type: 'trace' }, { trace: { ...financeTrace, outcome: { confidence: 1.4 } } }, { providers })).rejects.toThrow('outcome.confidence: must be between 0 and 1')
    await expect(evaluate({ evaluation_type: 'trace' }, {}, { providers })).rejects.toThrow('Invalid evaluation input: trace: is missing: set trace to the reasoning trace to score')
  })
})
