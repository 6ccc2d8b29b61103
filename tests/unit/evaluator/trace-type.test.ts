import { describe, expect, it } from 'vitest'
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
  it('scores the note\'s worked example through the evaluator: 0.724 on a fresh cache', async () => {
    const result = await evaluate({ evaluation_type: 'trace', pass_threshold: 0.7, trace: { fresh_cache: true } }, { trace: financeTrace }, { providers })
    expect(result).toMatchObject({ passed: true, overall_score: 0.724, trace: { C: 0.425, N: 0.5, D: 1, O: 0.92, profile: 'finance', overrides: [] } })
    expect(result.criteria_scores).toEqual({ complexity: 0.425, novelty: 0.5, tool_diversity: 1, outcome_confidence: 0.92 })
  })

  it('shares the novelty cache across evaluations unless a fresh one is asked for', async () => {
    const trace = { ...financeTrace, task: { objective: `unique objective ${Math.random()}` } }
    await evaluate({ evaluation_type: 'trace' }, { trace }, { providers })
    const again = await evaluate({ evaluation_type: 'trace' }, { trace }, { providers })
    expect(again.trace!.N).toBeLessThan(0.01)
    const fresh = await evaluate({ evaluation_type: 'trace', trace: { fresh_cache: true } }, { trace }, { providers })
    expect(fresh.trace!.N).toBe(0.5)
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
    await expect(evaluate({ evaluation_type: 'trace' }, {}, { providers })).rejects.toThrow('The trace to score is missing')
  })
})
