import { describe, expect, it } from 'vitest'
import { estimateFromPrompts } from '../../../engine/datasets/estimate'
import { importPromptfoo, type DatasetCase } from '../../../engine/datasets'
import { createProviders, defaultRegistry, runWorkflow } from '../../../engine'
import { FakeLLM } from '../../support/fake-llm'

const cases: DatasetCase[] = Array.from({ length: 10 }, (_, i) => ({ id: `q${i + 1}`, input: { question: `question ${i + 1}` } }))

/** Draft → judge → passed? → (true) output pass / (false) retry the draft, 2 attempts at most → (exhausted) output fail. */
const retryGate = {
  name: 'support gate with a retry',
  nodes: [
    { id: 'in', type: 'input', config: { fields: { question: { type: 'string' } } } },
    { id: 'draft', type: 'llm', config: { model: 'openai:gpt-4o-mini', prompt: 'Answer: {{input.question}}', max_tokens: 100 } },
    { id: 'judge', type: 'evaluator', config: { evaluation_type: 'scoring', model: 'openai:gpt-4o-mini', pass_threshold: 0.7, content: '{{steps.draft.text}}' } },
    { id: 'ok', type: 'condition', config: { left: '{{steps.judge.passed}}', op: 'eq', right: true } },
    { id: 'again', type: 'retry', config: { target: 'draft', max_attempts: 2 } },
    { id: 'pass', type: 'output', config: { value: '{{steps.draft.text}}', verdict: 'pass' } },
    { id: 'fail', type: 'output', config: { value: '{{steps.draft.text}}', verdict: 'fail' } },
  ],
  edges: [
    { from: 'in', to: 'draft' }, { from: 'draft', to: 'judge' }, { from: 'judge', to: 'ok' },
    { from: 'ok', to: 'pass', when: 'true' }, { from: 'ok', to: 'again', when: 'false' }, { from: 'again', to: 'fail', when: 'exhausted' },
  ],
}

describe('the estimate follows the workflow\'s shape', () => {
  it('counts a retry loop at its most attempts, says so, and gives the range down to one attempt', async () => {
    const estimate = estimateFromPrompts(retryGate, cases, 1, 'local:heuristic')
    // Per case: draft + judge, once at least, twice at most.
    expect(estimate.range).toMatchObject({ low_calls: 20, high_calls: 40 })
    expect(estimate.calls).toBe(40)
    expect(estimate.range!.low_usd!).toBeCloseTo(estimate.estimate_usd! / 2, 8)
    expect(estimate.shape).toContain('retry "again" may run its loop up to 2 times: counted at 2 in the high figure, once in the low one')

    // The run that fails every judgement makes the high figure's calls: 40, as the issue measured it.
    const fake = new FakeLLM()
    await fake.start()
    try {
      fake.onRequest(request => (request.body.response_format || /score/i.test(JSON.stringify(request.body.messages)) ? { json: { score: 0.1, reasoning: 'weak', feedback: 'weak', suggestions: [] } } : { text: 'an answer' }))
      const providers = createProviders({ env: fake.env(), retry: { maxRetries: 0 } })
      for (const c of cases) await runWorkflow(retryGate, { registry: defaultRegistry, providers, input: c.input })
      expect(fake.requests.length).toBeGreaterThanOrEqual(estimate.range!.low_calls)
      expect(fake.requests.length).toBeLessThanOrEqual(estimate.range!.high_calls)
      expect(fake.requests.length).toBe(40)
    }
    finally {
      await fake.stop()
    }
  })

  it('counts an imported promptfoo grid\'s one cell per case, as the run makes them', () => {
    const imported = importPromptfoo(`
prompts: ['Answer: {{question}}']
providers: [openai:chat:gpt-4o-mini, openai:chat:gpt-4o]
tests:
  - { vars: { question: one }, assert: [{ type: contains, value: x }] }
  - { vars: { question: two }, assert: [{ type: contains, value: x }] }
`)
    expect(imported.cases).toHaveLength(4)
    const estimate = estimateFromPrompts(imported.workflow as never, imported.cases, 1, 'local:heuristic')
    // 2 tests × 2 cells: each case runs its own cell's model once; contains needs no judge.
    expect(estimate.calls).toBe(4)
    expect(estimate.range).toBeUndefined()
  })

  it('counts both branches of a condition decided only as the run goes, with the range', () => {
    const branching = {
      name: 'branches',
      nodes: [
        { id: 'in', type: 'input', config: {} },
        { id: 'draft', type: 'llm', config: { model: 'openai:gpt-4o-mini', prompt: 'Answer {{input.question}}' } },
        { id: 'long', type: 'condition', config: { left: '{{steps.draft.text}}', op: 'contains', right: 'long' } },
        { id: 'shorten', type: 'llm', config: { model: 'openai:gpt-4o-mini', prompt: 'Shorten {{steps.draft.text}}' } },
        { id: 'out', type: 'output', config: { value: '{{steps.draft.text}}' } },
      ],
      edges: [{ from: 'in', to: 'draft' }, { from: 'draft', to: 'long' }, { from: 'long', to: 'shorten', when: 'true' }, { from: 'long', to: 'out', when: 'false' }],
    }
    const estimate = estimateFromPrompts(branching, cases, 1, 'local:heuristic')
    expect(estimate.range).toMatchObject({ low_calls: 10, high_calls: 20 })
    expect(estimate.shape).toContain('condition "long" is decided only as the run goes: both of its branches are counted')
  })

  it('says nothing of the shape when it changes nothing', () => {
    const straight = { ...retryGate, nodes: retryGate.nodes.filter(n => n.id !== 'again'), edges: retryGate.edges.filter(e => e.to !== 'again' && e.from !== 'again') }
    const estimate = estimateFromPrompts(straight, cases, 1, 'local:heuristic')
    expect(estimate.calls).toBe(20)
    expect(estimate.range).toBeUndefined()
    expect(estimate.shape).toBeUndefined()
  })
})

describe('the estimate as judgeflow test says it', () => {
  it('says an upper bound is one, with the low end and why', async () => {
    const { estimateLine } = await import('../../../cli/commands/test')
    const line = estimateLine(estimateFromPrompts(retryGate, cases, 1, 'local:heuristic'))
    expect(line).toMatch(/^estimate: at most about \$[\d.]+ for 10 case runs \(an upper bound; at least about \$[\d.]+, 20 calls\), from the prompts' length: 40 calls, about \d+ tokens in and \d+ out \(a rough figure: condition "ok" is decided only as the run goes: both of its branches are counted; retry "again" may run its loop up to 2 times: counted at 2 in the high figure, once in the low one\)$/)
  })
})
