import { describe, expect, it } from 'vitest'
import { evaluate, type EvaluatorConfigInput } from '../../../engine'
import { loadConfig } from '../../../core'
import { DEFAULT_MAX_EVALUATION_CALLS, DEFAULT_MAX_EVALUATION_COST_USD } from '../../../engine/evaluator/call-budget'
import { useFakeJudge } from '../../support/fake-judge'

// What one evaluation may cause, through the real SDKs against the fake LLM server.
const { fake, providers } = useFakeJudge()
const limits = { maxCalls: DEFAULT_MAX_EVALUATION_CALLS, maxCostUsd: DEFAULT_MAX_EVALUATION_COST_USD }
const criteria = (n: number) => Array.from({ length: n }, (_, i) => ({ name: `c${i}`, description: `criterion ${i}`, weight: 1 / n }))
const input = { content: 'Paris is the capital of France.', context: 'What is the capital of France?' }
const answer = (names: string[]) => ({ json: { criteria_scores: Object.fromEntries(names.map(n => [n, 0.9])), criteria_reasons: Object.fromEntries(names.map(n => [n, 'ok'])), feedback: 'fine', suggestions: [] } })

describe('the calls and cost one evaluation may cause', () => {
  it('refuses, before any call, a config that plans more calls than the limit: 7 judges × 10 samples × 50 criteria asked one by one', async () => {
    const config: EvaluatorConfigInput = {
      evaluation_type: 'criteria', judges: Array.from({ length: 7 }, (_, i) => `openai:judge-${i}`), samples: 10, per_criterion: true,
      criteria: criteria(50), cache: false,
    }
    await expect(evaluate(config, input, { providers: providers(), limits })).rejects.toThrow(expect.objectContaining({
      code: 'INVALID_CONFIG',
      message: 'This evaluation would make 3500 provider calls (7 judges × samples: 10 × 50 criteria asked one by one), more than the 200 one evaluation may make (JUDGEFLOW_MAX_EVALUATION_CALLS): use fewer judges, samples, criteria asked one by one or metrics, or raise the limit.',
    }))
    expect(fake.requests).toHaveLength(0)
  })

  it('refuses a plan whose estimated cost is over the limit, and runs one within both', async () => {
    // 10 samples of gpt-4o: about (600 + 15) tokens in and 250 out each, $0.0040375 a call.
    const config: EvaluatorConfigInput = { evaluation_type: 'criteria', model: 'openai:gpt-4o', samples: 10, criteria: criteria(2), cache: false }
    await expect(evaluate(config, input, { providers: providers(), limits: { maxCalls: 200, maxCostUsd: 0.01 } })).rejects.toThrow(expect.objectContaining({
      code: 'INVALID_CONFIG', message: expect.stringMatching(/^This evaluation is estimated at \$0\.04\d* for 10 provider calls \(samples: 10\), more than the \$0\.01 one evaluation may cost \(JUDGEFLOW_MAX_EVALUATION_COST_USD\)/),
    }))
    expect(fake.requests).toHaveLength(0)
    fake.onRequest(() => answer(['c0', 'c1']))
    const result = await evaluate(config, input, { providers: providers(), limits })
    expect(result.judge.calls).toBe(10)
    expect(fake.requests).toHaveLength(10)
  })

  it('counts the calls made, re-asks included: a judge that keeps answering badly is stopped at the limit', async () => {
    // Never valid JSON: each answer is re-asked.
    fake.onRequest(() => ({ text: 'not json at all' }))
    const config: EvaluatorConfigInput = { evaluation_type: 'criteria', model: 'openai:judge', criteria: criteria(1), cache: false }
    await expect(evaluate(config, input, { providers: providers(), limits: { maxCalls: 1, maxCostUsd: 1 } })).rejects.toThrow(expect.objectContaining({
      code: 'INVALID_CONFIG', message: 'This evaluation was stopped at 1 provider calls, re-asks included, the most one evaluation may make (JUDGEFLOW_MAX_EVALUATION_CALLS).',
    }))
    expect(fake.requests).toHaveLength(1)
  })

  it('takes its limits from JUDGEFLOW_MAX_EVALUATION_CALLS and JUDGEFLOW_MAX_EVALUATION_COST_USD, refusing a wrong value by name', () => {
    expect(loadConfig({}).evaluation.limits).toEqual({ maxCalls: 200, maxCostUsd: 1 })
    expect(loadConfig({ JUDGEFLOW_MAX_EVALUATION_CALLS: '5000', JUDGEFLOW_MAX_EVALUATION_COST_USD: '2.5' }).evaluation.limits).toEqual({ maxCalls: 5000, maxCostUsd: 2.5 })
    expect(() => loadConfig({ JUDGEFLOW_MAX_EVALUATION_CALLS: 'many' })).toThrow('JUDGEFLOW_MAX_EVALUATION_CALLS must be a whole number of at least 1 (it is "many"); unset it for the default, 200.')
    expect(() => loadConfig({ JUDGEFLOW_MAX_EVALUATION_COST_USD: '0' })).toThrow('JUDGEFLOW_MAX_EVALUATION_COST_USD must be a number of US dollars above 0 (it is "0"); unset it for the default, 1.')
  })
})
