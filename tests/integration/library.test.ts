/**
 * The library takes the caller's product and providers: `runDataset({ target })`, `evaluate(…, { providers })`,
 * `runWorkflow(…, { providers })`. Generation calls, were any made, would reach the fake LLM server.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { loadConfig } from '../../core/config'
import { evaluate, runDataset, runWorkflow, type CallerProviders, type DatasetCase, type Target } from '../../main/library'
import { FakeLLM } from '../support/fake-llm'

const fake = new FakeLLM()
beforeAll(async () => {
  await fake.start()
})
beforeEach(() => {
  fake.reset()
  fake.onRequest(() => ({ text: 'a generated answer' }))
})
afterAll(async () => {
  await fake.stop()
})
const settings = () => loadConfig({ ...fake.env(), JUDGEFLOW_CACHE: 'off' })

const workflow = {
  name: 'Support gate',
  nodes: [
    { id: 'in', type: 'input', config: { fields: { question: { type: 'string', required: true } } } },
    { id: 'draft', type: 'llm', config: { model: 'openai:gpt-4o-mini', prompt: 'Answer: {{input.question}}' } },
    { id: 'judge', type: 'evaluator', config: { evaluation_type: 'scoring', model: 'local:heuristic', pass_threshold: 0.5, content: '{{steps.draft.text}}', context: '{{input.question}}' } },
  ],
  edges: [{ from: 'in', to: 'draft' }, { from: 'draft', to: 'judge' }],
}
const good = 'To reset your password, open Settings, choose Forgot password, enter your email address and follow the link we send you.'
const cases: DatasetCase[] = [
  { id: 'q1', input: { question: 'How do I reset my password?' } },
  { id: 'q2', input: { question: 'How do I reset my password please?' } },
  { id: 'q3', input: { question: 'And my password?' } },
]

describe('runDataset with the caller\'s target', () => {
  it('judges what the target answers in place of the generating step: no generation call; a throw errors its case with its message', async () => {
    const seen: Array<[unknown, number]> = []
    const target: Target = async (input, { attempt }) => {
      seen.push([input.question, attempt])
      if (String(input.question).startsWith('And')) throw new Error('the staging API answered 503')
      return String(input.question).endsWith('please?') ? 'No.' : good
    }
    const { name: _unnamed, ...nameless } = workflow
    const report = await runDataset({ workflow: nameless, target, cases, config: settings(), concurrency: 1 })
    expect(fake.requests).toHaveLength(0)
    expect(seen).toEqual([['How do I reset my password?', 1], ['How do I reset my password please?', 1], ['And my password?', 1]])
    expect(report.results.map(r => [r.case_id, r.status, r.verdict ?? null, r.output ?? null, r.error ?? null])).toEqual([
      ['q1', 'succeeded', 'pass', good, null],
      ['q2', 'succeeded', 'fail', 'No.', null],
      ['q3', 'errored', null, null, 'the staging API answered 503'],
    ])
    expect([report.passed, report.failed, report.errored]).toEqual([1, 1, 1])
    // The gates at their defaults, as for \`judgeflow test\`: every case must pass, and none may error.
    expect(report.gates.map(g => [g.gate, g.required, g.passed])).toEqual([['min_pass_rate', 1, false], ['max_errors', 0, false]])
  })

  it('with an evaluator config: the target\'s answer is the content judged, the case\'s context passed on', async () => {
    const target: Target = input => (input.context === 'How do I reset my password?' ? { text: good, source: 'kb' } : 'No.')
    const report = await runDataset({
      evaluator: { evaluation_type: 'scoring', model: 'local:heuristic', pass_threshold: 0.5 },
      target,
      cases: [{ id: 'a', input: { context: 'How do I reset my password?' } }, { id: 'b', input: { context: 'How do I reset my password please?' } }],
      config: settings(),
    })
    expect(report.results.map(r => [r.case_id, r.verdict, r.output])).toEqual([['a', 'pass', good], ['b', 'fail', 'No.']])
    expect(fake.requests).toHaveLength(0)
  })

  it('a target that returns nothing errors its case; a target with recorded outputs, or no target kind, is refused', async () => {
    const report = await runDataset({ workflow, target: (() => undefined) as unknown as Target, cases: cases.slice(0, 1), config: settings() })
    expect(report.results[0]).toMatchObject({ status: 'errored', error: 'the target returned undefined: return the output text, or an object (the step\'s whole output)' })
    await expect(runDataset({ workflow, target: () => good, cases: [{ ...cases[0]!, output: good }], config: settings() }))
      .rejects.toThrow('runDataset: case "q1" holds a recorded output and a target is given')
    await expect(runDataset({ cases, config: settings() } as never)).rejects.toThrow('runDataset: give a workflow, or an evaluator config (evaluator), not both or neither.')
  })

  it('cases holding outputs are judged on them with no generation call, the report saying so', async () => {
    const report = await runDataset({ workflow, cases: cases.slice(0, 2).map(c => ({ ...c, output: c.id === 'q1' ? good : 'No.' })), config: settings() })
    expect(fake.requests).toHaveLength(0)
    expect(report.recorded_outputs).toEqual({ from: 'the dataset\'s output column', step: 'draft' })
    expect(report.results.map(r => r.verdict)).toEqual(['pass', 'fail'])
  })
})

describe('the caller\'s providers', () => {
  const calls: Array<[string, string]> = []
  const providers: CallerProviders = {
    gateway: {
      async complete(model, request) {
        const text = request.messages.at(-1)!.content
        calls.push([model, request.json_schema ? 'judge' : text])
        if (request.json_schema) return JSON.stringify({ criteria_scores: { overall: 0.9 }, feedback: 'clear steps', suggestions: [] })
        return { text: good, usage: { input_tokens: 12, output_tokens: 30 } }
      },
    },
  }
  beforeEach(() => {
    calls.length = 0
  })

  it('evaluate calls a judge named <id>:<model> through the caller\'s provider; an unknown id is refused naming it', async () => {
    const result = await evaluate({ evaluation_type: 'scoring', model: 'gateway:judge-1', pass_threshold: 0.5 }, { content: good }, { providers, settings: settings() })
    expect(result).toMatchObject({ passed: true, overall_score: 0.9, feedback: 'clear steps' })
    expect(calls).toEqual([['judge-1', 'judge']])
    await expect(evaluate({ evaluation_type: 'scoring', model: 'nowhere:judge' }, { content: good }, { providers, settings: settings() }))
      .rejects.toThrow('Unknown provider "nowhere": the evaluator uses nowhere:judge; known providers are openai, anthropic, local, gateway.')
    expect(fake.requests).toHaveLength(0)
  })

  it('runWorkflow and runDataset run steps on the caller\'s provider; validation knows it, and still refuses an unknown one', async () => {
    const own = {
      ...workflow,
      nodes: workflow.nodes.map(n => (n.id === 'draft' ? { ...n, config: { model: 'gateway:bot', prompt: 'Answer: {{input.question}}' } } : n)),
    }
    const run = await runWorkflow(own, { input: { question: 'Reset?' }, providers, settings: settings() })
    expect(run.status).toBe('succeeded')
    expect(run.steps.draft!.output).toMatchObject({ text: good, usage: { input_tokens: 12, output_tokens: 30 } })
    expect(calls).toEqual([['bot', 'Answer: Reset?']])
    const report = await runDataset({ workflow: own, cases: cases.slice(0, 1), providers, config: settings() })
    expect(report.results[0]).toMatchObject({ verdict: 'pass', output: good })
    expect(report.tokens.generation).toEqual({ input: 12, output: 30 })
    const unknown = { ...own, nodes: own.nodes.map(n => (n.id === 'draft' ? { ...n, config: { ...n.config, model: 'gateway2:bot' } } : n)) }
    await expect(runWorkflow(unknown, { input: { question: 'Reset?' }, providers, settings: settings() }))
      .rejects.toThrow('node "draft": nodes.draft.config.model: unknown provider "gateway2" in "gateway2:bot": judgeflow calls openai, anthropic, local, gateway; did you mean "gateway:bot"?')
    await expect(runDataset({ workflow: unknown, cases, providers, config: settings() })).rejects.toThrow('unknown provider "gateway2"')
    await expect(runWorkflow(own, { input: { question: 'Reset?' }, settings: settings() })).rejects.toThrow('unknown provider "gateway" in "gateway:bot"')
    expect(() => evaluate({ evaluation_type: 'scoring', model: 'local:heuristic' }, { content: good }, { providers: { Bad: async () => '' }, settings: settings() }))
      .toThrow('providers: "Bad" is not a provider id')
    expect(fake.requests).toHaveLength(0)
  })
})

describe('runDataset with an http step: the caller\'s own suite, as the CLI runs it', () => {
  it('calls a loopback endpoint (the server would refuse it) with a header read from settings.env, and never reports the secret', async () => {
    const { createServer } = await import('node:http')
    const seen: string[] = []
    const server = createServer((req, res) => {
      seen.push(String(req.headers['x-api-key']))
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ reply: { text: good }, key: req.headers['x-api-key'] }))
    })
    await new Promise<void>(done => server.listen(0, '127.0.0.1', done))
    try {
      const port = (server.address() as { port: number }).port
      const gate = {
        name: 'API gate',
        settings: { env: ['PRODUCT_KEY'] },
        nodes: [
          { id: 'in', type: 'input', config: { fields: { question: { type: 'string', required: true } } } },
          { id: 'api', type: 'http', config: { url: `http://127.0.0.1:${port}/chat`, headers: { 'X-Api-Key': '{{env.PRODUCT_KEY}}' }, body: { q: '{{input.question}}' }, answer: 'reply.text' } },
          { id: 'judge', type: 'evaluator', config: { evaluation_type: 'scoring', model: 'local:heuristic', pass_threshold: 0.5, context: '{{input.question}}' } },
        ],
        edges: [{ from: 'in', to: 'api' }, { from: 'api', to: 'judge' }],
      }
      const report = await runDataset({ workflow: gate, cases: cases.slice(0, 1), config: loadConfig({ ...fake.env(), PRODUCT_KEY: 'pk-live-secret-123' }) })
      expect(seen).toEqual(['pk-live-secret-123'])
      expect(report.results[0]!.status).toBe('succeeded')
      expect(report.results[0]!.output).toBe(good)
      expect(JSON.stringify(report)).not.toContain('pk-live-secret-123')
      expect(fake.requests).toEqual([])
    }
    finally {
      server.closeAllConnections()
      server.close()
    }
  })
})
