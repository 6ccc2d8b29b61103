import { describe, expect, it } from 'vitest'
import { caseRunOutcome, scoredStep } from '../../../engine/datasets/case-run'
import type { RunResult, StepSummary } from '../../../engine/executor/types'
import type { Workflow } from '../../../engine/schema/workflow'

const workflow = {
  name: 'gate',
  nodes: [
    { id: 'in', type: 'input' },
    { id: 'draft', type: 'llm', config: { model: 'openai:gpt-4o-mini', prompt: 'x' } },
    { id: 'strict', type: 'evaluator', config: { evaluation_type: 'scoring', model: 'local:heuristic' } },
    { id: 'first', type: 'evaluator', config: { evaluation_type: 'scoring', model: 'local:heuristic' } },
    { id: 'out', type: 'output', config: { verdict: 'pass' } },
  ],
  // "strict" comes after "first" in the graph, though before it in the node list.
  edges: [{ from: 'in', to: 'draft' }, { from: 'draft', to: 'first' }, { from: 'first', to: 'strict' }, { from: 'strict', to: 'out' }],
} as unknown as Workflow

const ok = (output: unknown): StepSummary => ({ status: 'succeeded', attempts: 1, output, error: null })
const task = { case_id: 'q1', repeat: 2 }

function run(result: Partial<RunResult>): RunResult {
  return { status: 'succeeded', verdict: null, output: null, error: null, steps: {}, duration_ms: 10, ...result }
}

describe('caseRunOutcome', () => {
  it('takes the verdict from the run and the score from the last evaluator in the graph that succeeded', () => {
    const result = run({ verdict: 'fail', steps: { first: ok({ passed: true, overall_score: 0.9, confidence: 0.5 }), strict: ok({ passed: false, overall_score: 0.4, confidence: 0.8 }) } })
    expect(scoredStep(workflow, result)).toBe('strict')
    expect(caseRunOutcome(task, workflow, { id: 'r1', result, latency_ms: 412.4, tokens: { input: 10, output: 5 } })).toEqual({
      kind: 'result',
      result: { case_id: 'q1', repeat: 2, status: 'succeeded', verdict: 'fail', score: 0.4, confidence: 0.8, run_id: 'r1', latency_ms: 412, tokens: { input: 10, output: 5 }, error: null },
    })
    // A named score step wins.
    expect(caseRunOutcome(task, workflow, { id: 'r1', result, latency_ms: 1 }, { scoreStep: 'first' })).toMatchObject({ result: { verdict: 'fail', score: 0.9 } })
  })

  it('falls back on the scored evaluator\'s `passed` when no output step gives a verdict, and errors when there is neither', () => {
    const result = run({ steps: { first: ok({ passed: true, overall_score: 0.9 }) } })
    expect(caseRunOutcome(task, workflow, { id: 'r1', result, latency_ms: 1 })).toMatchObject({ result: { status: 'succeeded', verdict: 'pass', score: 0.9 } })
    expect(caseRunOutcome(task, workflow, { id: 'r2', result: run({}), latency_ms: 1 })).toMatchObject({
      result: { status: 'errored', run_id: 'r2', error: 'the run gave no verdict: no output step set one, and no evaluator step succeeded' },
    })
  })

  it('keeps the scored evaluator\'s feedback as the case\'s reason, and none when it gave none', () => {
    const result = run({ steps: { strict: ok({ passed: false, overall_score: 0.2, feedback: 'The answer names the wrong setting.' }) } })
    expect(caseRunOutcome(task, workflow, { id: 'r1', result, latency_ms: 1 })).toMatchObject({ result: { verdict: 'fail', reason: 'The answer names the wrong setting.' } })
    const silent = run({ steps: { strict: ok({ passed: true, overall_score: 0.9, feedback: ' ' }) } })
    expect(caseRunOutcome(task, workflow, { id: 'r2', result: silent, latency_ms: 1 })).not.toHaveProperty('result.reason')
  })

  it('puts a run the provider refused with 429 back, with its Retry-After, and errors any other failure', () => {
    const limited = run({ status: 'failed', error: { code: 'PROVIDER_ERROR', category: 'provider', message: 'openai:gpt-4o-mini answered HTTP 429: slow down', details: { provider: 'openai', status: 429, retryable: true, retry_after_ms: 2000 } } })
    expect(caseRunOutcome(task, workflow, { id: 'r1', result: limited, latency_ms: 1 })).toEqual({ kind: 'rate_limited', retryAfterMs: 2000, error: 'openai:gpt-4o-mini answered HTTP 429: slow down' })
    const down = run({ status: 'failed', steps: { draft: { status: 'failed', attempts: 1, output: null, error: { code: 'PROVIDER_ERROR', category: 'provider', message: 'could not be reached', details: { provider: 'openai', retryable: true } } } } })
    expect(caseRunOutcome(task, workflow, { id: 'r1', result: down, latency_ms: 1 })).toMatchObject({ kind: 'result', result: { status: 'errored', error: 'could not be reached' } })
    expect(caseRunOutcome(task, workflow, { id: 'r1', result: run({ status: 'cancelled', verdict: 'pass' }), latency_ms: 1 })).toMatchObject({ result: { status: 'errored', error: 'the run ended cancelled' } })
  })
})
