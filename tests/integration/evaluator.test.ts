import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { builtinSteps, createProviders, MemoryResponseCache, runWorkflow, StepRegistry } from '../../engine'
import { lastUserText } from '../support/fake-llm'
import { useAppWithFakeLLM, type AppServer } from '../support/app-server'
import { runEndedOn } from '../support/runs'

const app = useAppWithFakeLLM({ beforeAll, afterAll })
const { fake } = app
let server: AppServer
beforeAll(() => { server = app.server })

const example = (name: string) => JSON.parse(readFileSync(resolve(import.meta.dirname, `../../examples/${name}.json`), 'utf8'))
const registry = new StepRegistry(builtinSteps)
const finished = (id: string) => runEndedOn(server, id)

describe('the templates', () => {
  it('are offered as a gallery, and not also copied into a new database as workflows', async () => {
    const { body: workflows } = await server.api('/api/workflows')
    expect(workflows.map((w: { name: string }) => w.name)).not.toContain('Quality gate')
    const { body: gallery } = await server.api('/api/templates')
    expect(gallery.map((t: { id: string }) => t.id)).toEqual(['quality-gate', 'feedback-loop', 'ab-test', 'gate-your-api'])
  })

  it('run offline: the quality gate fails once and passes on retry, with the feedback in the second prompt', async () => {
    const result = await runWorkflow(example('quality-gate'), { registry, providers: createProviders({ env: {} }), input: { question: 'How do I reset my password?' } })
    expect(result).toMatchObject({ status: 'succeeded', verdict: 'pass' })
    expect(result.steps.draft!.attempts).toBe(2)
    expect(result.steps.judge!.output).toMatchObject({ passed: true, judge: { model: 'local:heuristic', heuristic: true } })
  })

  it('run offline: "Gate your API" judges its HTTP step\'s pinned response and passes, calling nothing', async () => {
    const result = await runWorkflow(example('gate-your-api'), { registry, providers: createProviders({ env: {} }), input: { question: 'How do I reset my password?' } })
    expect(result).toMatchObject({ status: 'succeeded', verdict: 'pass' })
    // The pinned response, as written in the template: nothing was called.
    expect(result.steps.api!.output).toEqual(example('gate-your-api').nodes[1].pinned[0])
    expect(result.steps.judge!.output).toMatchObject({ passed: true, judge: { model: 'local:heuristic', heuristic: true } })
  })

  it('run offline: the feedback loop improves the score, the A/B test picks the stepwise answer', async () => {
    const loop = await runWorkflow(example('feedback-loop'), { registry, providers: createProviders({ env: {} }), input: {} })
    const { before, after } = loop.output as { before: number, after: number }
    expect(after).toBeGreaterThan(before)
    const ab = await runWorkflow(example('ab-test'), { registry, providers: createProviders({ env: {} }), input: {} })
    expect(ab.output).toMatchObject({ winner: 'b' })
    expect((ab.output as { ranking: Array<{ id: string }> }).ranking.map(r => r.id)).toEqual(['b', 'a'])
  })

  it('run against the fake LLM server: real calls for the drafts and an OpenAI judge', async () => {
    fake.reset()
    let drafts = 0
    fake.onRequest((r) => {
      if (r.body.response_format) {
        const good = lastUserText(r).includes('Forgot password')
        return { json: { criteria_scores: { relevance: good ? 0.9 : 0.3, completeness: good ? 0.9 : 0.2, clarity: 0.8 }, criteria_reasons: { relevance: 'r', completeness: 'c', clarity: 'cl' }, feedback: good ? 'Clear.' : 'List the steps.', suggestions: [] } }
      }
      drafts++
      return { text: drafts === 1 ? 'Not sure.' : 'Open Settings, choose "Forgot password", follow the emailed link.' }
    })
    const gate = example('quality-gate')
    for (const node of gate.nodes) {
      delete node.pinned
      if (node.type === 'evaluator') node.config.model = 'openai:gpt-4o-mini'
    }
    const result = await runWorkflow(gate, { registry, providers: createProviders({ env: fake.env(), cache: new MemoryResponseCache() }), input: { question: 'How do I reset my password?' } })
    expect(result).toMatchObject({ status: 'succeeded', verdict: 'pass' })
    expect(result.steps.judge!.output).toMatchObject({ passed: true, overall_score: 0.87 })
    const secondDraft = fake.requests.filter(r => !r.body.response_format)[1]!
    expect(lastUserText(secondDraft)).toContain('List the steps.')
  })

  it('run against the fake LLM server: the feedback loop sends the judge feedback to the improving LLM', async () => {
    fake.reset()
    fake.onRequest((r) => {
      if (r.body.response_format) {
        const improved = lastUserText(r).includes('numbered')
        return { json: { criteria_scores: { relevance: improved ? 0.9 : 0.5, completeness: improved ? 0.9 : 0.4, clarity: 0.8 }, criteria_reasons: { relevance: 'r', completeness: 'c', clarity: 'cl' }, feedback: improved ? 'Good.' : 'Give numbered steps.', suggestions: ['Number the steps.'] } }
      }
      return { text: lastUserText(r).includes('Improve') ? 'Here are numbered steps: 1. Settings 2. Forgot password 3. Email link.' : 'Use the app.' }
    })
    const loop = example('feedback-loop')
    for (const node of loop.nodes) {
      delete node.pinned
      if (node.type === 'evaluator') node.config.model = 'openai:gpt-4o-mini'
    }
    const result = await runWorkflow(loop, { registry, providers: createProviders({ env: fake.env(), cache: new MemoryResponseCache() }), input: {} })
    expect(result.output).toMatchObject({ before: 0.56, after: 0.87 })
    const improvePrompt = lastUserText(fake.requests.find(r => !r.body.response_format && lastUserText(r).includes('Improve'))!)
    expect(improvePrompt).toContain('Feedback: Give numbered steps.')
    expect(improvePrompt).toContain('Number the steps.')
  })
})

describe('the evaluator step in the server', () => {
  it('runs a workflow whose A/B comparison is judged by the fake Anthropic judge, position-checked', async () => {
    fake.reset()
    fake.onRequest((r) => {
      const labels = Object.keys(r.body.tools[0].input_schema.properties.candidates.properties)
      const prompt = lastUserText(r)
      return { json: { candidates: Object.fromEntries(labels.map(l => [l, { criteria_scores: { relevance: prompt.split(`## Candidate ${l}`)[1]!.split('\n## ')[0]!.includes('Settings') ? 0.9 : 0.4, helpfulness: 0.5 }, reason: 'x' }])), feedback: 'b is better', suggestions: [] } }
    })
    const ab = example('ab-test')
    ab.nodes.find((n: { id: string }) => n.id === 'judge').config.model = 'anthropic:claude-x'
    const { body: wf } = await server.api('/api/workflows', { body: ab })
    const { body: started } = await server.api(`/api/workflows/${wf.id}/runs`, { body: {} })
    const run = await finished(started.id)
    expect(run.status).toBe('succeeded')
    expect(run.steps.judge.output).toMatchObject({ winner: 'b', position_consistency: 1, judge: { model: 'anthropic:claude-x', calls: 2 } })
    expect(fake.requests.every(r => r.api === 'anthropic' && r.body.tool_choice.name === 'comparison')).toBe(true)
  })
})

describe('evaluator steps in the server', () => {
  it('an evaluator without content judges its upstream step\'s text; include_feedback false asks for no feedback and returns none', async () => {
    fake.reset()
    const draft = 'Open Settings, choose "Forgot password" and follow the emailed link.'
    fake.onRequest((r) => {
      // A chatty judge: feedback it was not asked for is never passed on.
      if (r.body.response_format) return { json: { criteria_scores: { relevance: 0.9 }, criteria_reasons: { relevance: 'On topic.' }, feedback: 'unasked feedback', suggestions: ['unasked'] } }
      return { text: draft }
    })
    const { body: wf } = await server.api('/api/workflows', { body: {
      name: 'no content, no feedback',
      nodes: [
        { id: 'in', type: 'input' },
        { id: 'draft', type: 'llm', config: { model: 'openai:gpt-4o-mini', prompt: 'Answer: {{input.question}}' } },
        { id: 'judge', type: 'evaluator', config: { evaluation_type: 'criteria', model: 'openai:gpt-4o-mini', criteria: [{ name: 'relevance' }], include_feedback: false } },
      ],
      edges: [{ from: 'in', to: 'draft' }, { from: 'draft', to: 'judge' }],
    } })
    const { body: started } = await server.api(`/api/workflows/${wf.id}/runs`, { body: { input: { question: 'How do I reset my password?' } } })
    const run = await finished(started.id)
    expect(run.status).toBe('succeeded')
    expect(run.steps.judge.input.content).toBe(draft)
    expect(run.steps.judge.output).toMatchObject({ passed: true, feedback: '', suggestions: [], criteria_reasons: { relevance: 'On topic.' } })
    const asked = fake.requests.find(r => r.body.response_format)!
    expect(Object.keys(asked.body.response_format.json_schema.schema.properties)).toEqual(['criteria_scores', 'criteria_reasons'])
    expect(lastUserText(asked)).toContain(draft)
    expect(lastUserText(asked)).not.toMatch(/feedback|suggestion/i)

    // A comparison through POST /api/evaluate, judged by the Anthropic tool call, likewise.
    fake.reset()
    fake.onRequest(r => ({ json: { candidates: Object.fromEntries(Object.keys(r.body.tools[0].input_schema.properties.candidates.properties).map(l => [l, { criteria_scores: { overall: l === 'A' ? 0.8 : 0.6 }, reason: 'r' }])), feedback: 'unasked', suggestions: ['unasked'] } }))
    const compared = await server.api('/api/evaluate', { body: { config: { evaluation_type: 'comparison', model: 'anthropic:claude-x', include_feedback: false }, input: { candidates: ['first', 'second'] } } })
    expect(compared.body).toMatchObject({ feedback: '', suggestions: [] })
    expect(fake.requests.map(r => Object.keys(r.body.tools[0].input_schema.properties))).toEqual([['candidates'], ['candidates']])
  })
})

describe('the metric suite in the server', () => {
  it('without a model is judged by anthropic:claude-sonnet-4-5-20250929, and a misspelt key is a 400 naming it', async () => {
    fake.reset()
    fake.onRequest(() => ({ json: { score: 70, evaluator_comment: 'fine' } }))
    const { status, body } = await server.api('/api/evaluate', { body: { config_toml: '[[metrics]]\nname = "Relevance"\n', input: { user_query: 'q?', submission: 'an answer' } } })
    expect(status).toBe(200)
    expect(body).toMatchObject({ judge: { model: 'anthropic:claude-sonnet-4-5-20250929', heuristic: false }, evaluation_result: { overall_score: 70 } })
    expect(fake.requests.map(r => [r.api, r.body.model])).toEqual([['anthropic', 'claude-sonnet-4-5-20250929']])
    const typo = await server.api('/api/evaluate', { body: { config_toml: '[[metrics]]\nname = "Relevance"\nmax_retires = 1\n', input: { submission: 'x' } } })
    expect([typo.status, typo.body.message]).toEqual([400, 'Invalid evaluator config: metrics[0]: unknown key "max_retires" in [[metrics]]: did you mean "max_retries"?'])
  })
})

describe('POST /api/evaluate', () => {
  it('evaluates synchronously with the same engine', async () => {
    const { status, body } = await server.api('/api/evaluate', { body: { config: { evaluation_type: 'rubric', model: 'local:heuristic' }, input: { user_query: 'How do I reset my password?', submission: 'Open Settings, choose "Forgot password", then follow the emailed link to set a new password.' } } })
    expect(status).toBe(200)
    expect(body).toMatchObject({ evaluation_type: 'rubric', judge: { heuristic: true } })
    expect(body.grade).toMatch(/^[ABCDF]$/)
  })

  it('takes the metric suite as TOML', async () => {
    const { body } = await server.api('/api/evaluate', { body: { config_toml: 'model = "local:heuristic"\n[[metrics]]\nname = "Relevance"\nweight = 1.0\n', input: { user_query: 'q?', submission: 'an answer' } } })
    expect(body.evaluation_result.metrics[0].metric_name).toBe('Relevance')
  })

  it('runs the deterministic types too: scorers with a preset, and a trace', async () => {
    const edit = JSON.parse(readFileSync(resolve(import.meta.dirname, '../../examples/edit-gate-input.json'), 'utf8'))
    const scored = await server.api('/api/evaluate', { body: { config: { evaluation_type: 'scorers', preset: 'standard' }, input: { ...edit, actual: { operations: [{ type: 'update', targetBlockId: 'b1' }], blocks: [{ id: 'b1', page: 'Intro', content: 'まとめ' }] } } } })
    expect(scored.body).toMatchObject({ passed: true, overall_score: 1, scorer_results: [{ type: 'operation-accuracy' }, { type: 'target-block-precision' }, { type: 'content-quality' }] })
    const trace = { metadata: { task_domain: 'code', success: true }, task: { objective: 'Fix the failing test' }, steps: [{ type: 'thought', content: 'Read the error' }], outcome: { confidence: 0.9 } }
    const traced = await server.api('/api/evaluate', { body: { config: { evaluation_type: 'trace', trace: { fresh_cache: true } }, input: { trace } } })
    expect(traced.body).toMatchObject({ overall_score: 0.1, passed: false, trace: { profile: 'code', overrides: ['single_thought'] } })
    const bad = await server.api('/api/evaluate', { body: { config: { evaluation_type: 'trace' }, input: { trace: { ...trace, outcome: { confidence: 2 } } } } })
    expect([bad.status, bad.body.message]).toEqual([400, 'Invalid trace: outcome.confidence: must be between 0 and 1.'])
  })

  it('is a 400 naming the field for a bad config, and a 502 when the judge fails', async () => {
    const bad = await server.api('/api/evaluate', { body: { config: { evaluation_type: 'criteria', criteria: [{ name: 'a', weight: 0.3 }] }, input: { content: 'x' } } })
    expect(bad.status).toBe(400)
    expect(bad.body.message).toBe('Invalid evaluator config: criteria: weights must sum to 1.0, not 0.3 (a 0.3).')
    fake.reset()
    fake.onRequest(() => ({ status: 500 }))
    const down = await server.api('/api/evaluate', { body: { config: { evaluation_type: 'scoring', model: 'openai:gpt-4o-mini' }, input: { content: 'x' } } })
    expect(down.status).toBe(502)
    expect(down.body.message).toContain('The judge openai:gpt-4o-mini failed')
  })
})

describe('what one request may cost', () => {
  it('POST /api/evaluate refuses a config that plans more provider calls than JUDGEFLOW_MAX_EVALUATION_CALLS, before any call', async () => {
    const criteria = Array.from({ length: 50 }, (_, i) => ({ name: `c${i}`, description: `criterion ${i}`, weight: 1 / 50 }))
    const config = { evaluation_type: 'criteria', judges: Array.from({ length: 7 }, (_, i) => `openai:judge-${i}`), samples: 10, per_criterion: true, criteria, cache: false }
    const before = fake.requests.length
    const refused = await server.api('/api/evaluate', { method: 'POST', body: { config, input: { content: 'x' } } })
    expect(refused.status).toBe(400)
    expect(refused.body.message).toContain('This evaluation would make 3500 provider calls (7 judges × samples: 10 × 50 criteria asked one by one), more than the 200 one evaluation may make (JUDGEFLOW_MAX_EVALUATION_CALLS)')
    expect(fake.requests.length).toBe(before)
  })
})
