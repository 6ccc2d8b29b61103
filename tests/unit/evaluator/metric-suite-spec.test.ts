/**
 * The metric suite's settings: the built-in default model and its missing key, no unknown keys,
 * default_model / default_provider, enabled_metrics and metric_weights, one metric after another.
 */
import { describe, expect, it } from 'vitest'
import { evaluate, parseMetricSuiteToml, runWorkflow } from '../../../engine'
import { suiteInput, useFakeJudge } from '../../support/fake-judge'
import { testDeps } from '../../support/workflows'

const { fake, providers } = useFakeJudge()
const input = suiteInput
const systemOf = (body: any): string => (typeof body.system === 'string' ? body.system : body.messages[0].content)
const metricOf = (body: any) => {
  const system = systemOf(body)
  return system.includes('clarity and coherence') ? 'ClarityCoherence' : system.includes('coverage') ? 'Coverage' : system.includes('relevance') ? 'Relevance' : 'LLMPlain'
}
const SCORES: Record<string, number> = { ClarityCoherence: 80, Coverage: 60, Relevance: 90, LLMPlain: 50 }
const byMetric = () => fake.onRequest(r => ({ json: { score: SCORES[metricOf(r.body)], evaluator_comment: `${metricOf(r.body)} comment` } }))

describe('the built-in default model and its missing key', () => {
  it('is anthropic:claude-sonnet-4-5-20250929, whatever keys the server has', async () => {
    byMetric()
    const result = await evaluate({ evaluation_type: 'metrics', metrics: [{ name: 'Relevance' }] }, input, { providers: providers() })
    expect(fake.requests.map(r => [r.api, r.body.model])).toEqual([['anthropic', 'claude-sonnet-4-5-20250929']])
    expect(result.judge).toMatchObject({ model: 'anthropic:claude-sonnet-4-5-20250929', heuristic: false })
  })

  it('without its key fails at once naming ANTHROPIC_API_KEY, never switching to the offline judge', async () => {
    const message = 'ANTHROPIC_API_KEY is not set: metric "ClarityCoherence" uses anthropic:claude-sonnet-4-5-20250929. '
      + 'It is the metric suite\'s built-in default model: set the key in the environment, or name a model in [llm_default] (model = "local:heuristic" judges offline).'
    await expect(evaluate({ evaluation_type: 'metrics' }, input, { providers: providers({}) })).rejects.toThrow(message)
    // The server's default judge would be OpenAI here; the suite's default stays Anthropic.
    await expect(evaluate(parseMetricSuiteToml('[[metrics]]\nname = "Relevance"\n'), input, { providers: providers({ OPENAI_API_KEY: 'k' }) }))
      .rejects.toThrow('ANTHROPIC_API_KEY is not set: metric "Relevance" uses anthropic:claude-sonnet-4-5-20250929.')
    expect(fake.requests).toHaveLength(0)
  })

  it('in a workflow, a suite step without a model needs ANTHROPIC_API_KEY before the run starts', async () => {
    const { options, events } = testDeps()
    const suite = { name: 'suite', nodes: [{ id: 'judge', type: 'evaluator', config: { evaluation_type: 'metrics', content: 'an answer' } }], edges: [] }
    await expect(runWorkflow(suite, options)).rejects.toThrow('ANTHROPIC_API_KEY is not set: node "judge" uses anthropic:claude-sonnet-4-5-20250929.')
    expect(events).toEqual([])
  })

  it('a missing key names what to change and never suggests pinning a step', async () => {
    const error = await evaluate({ evaluation_type: 'metrics', llm_default: { model: 'openai:gpt-4o-mini' } }, input, { providers: providers({}) }).catch((e: Error) => e)
    expect((error as Error).message).toBe('OPENAI_API_KEY is not set: metric "ClarityCoherence" uses openai:gpt-4o-mini. Set it in the environment, or name another model (model = "local:heuristic" judges offline).')
    const judge = await evaluate({ evaluation_type: 'criteria', model: 'openai:gpt-4o-mini', criteria: [{ name: 'relevance' }] }, { content: 'x' }, { providers: providers({}) }).catch((e: Error) => e)
    expect((judge as Error).message).toBe('OPENAI_API_KEY is not set: the evaluator uses openai:gpt-4o-mini. Set it in the environment, or choose another judge model ("local:heuristic" judges offline).')
  })

  it('the offline judge says when it cannot follow a metric\'s system_instruction', async () => {
    const result = await evaluate(parseMetricSuiteToml(`
[llm_default]
model = "local:heuristic"

[[metrics]]
name = "Relevance"
weight = 0.5
system_instruction = "Judge only the spelling."

[[metrics]]
name = "Coverage"
weight = 0.5
`), input, { providers: providers({}) })
    const [relevance, coverage] = result.metrics!
    expect(relevance!.evaluator_comment).toMatch(/^\[local:heuristic cannot follow a system_instruction: scored from text features instead\.\] /)
    expect(coverage!.evaluator_comment).not.toContain('cannot follow')
    expect(result.warnings).toEqual(['local:heuristic cannot follow a system_instruction; "Relevance" was scored from text features instead (name an LLM model for it to use the instruction).'])
    const plain = await evaluate({ evaluation_type: 'metrics', model: 'local:heuristic', metrics: [{ name: 'Relevance' }] }, input, { providers: providers({}) })
    expect(plain.warnings).toBeUndefined()
  })
})

describe('keys the suite does not know are refused by name', () => {
  it.each([
    ['[llm_default]\ntemprature = 0.2', 'llm_default: unknown key "temprature" in [llm_default]: did you mean "temperature"?'],
    ['[[metrics]]\nname = "Relevance"\nmax_retires = 5', 'metrics[0]: unknown key "max_retires" in [[metrics]]: did you mean "max_retries"?'],
    ['pass_treshold = 0.8', '(config): unknown key "pass_treshold" in the evaluator config: did you mean "pass_threshold"?'],
    ['api_key = "sk-live-secret-1"', '(config): "api_key" is not a setting of the evaluator config: API keys are read only from the environment (OPENAI_API_KEY, ANTHROPIC_API_KEY), never from a config'],
    ['[llm_default]\napi_key = "sk-live-secret-1"', 'llm_default: "api_key" is not a setting of [llm_default]: API keys are read only from the environment'],
    ['[[metrics]]\nname = "Relevance"\nfoo = 1', 'metrics[0]: unknown key "foo" in [[metrics]]: known keys are name, weight, model, provider, system_instruction, temperature, max_tokens, max_retries'],
  ])('%s', async (toml, message) => {
    const error = await evaluate(parseMetricSuiteToml(`model = "local:heuristic"\n${toml}`), input, { providers: providers({}) }).catch((e: Error) => e)
    expect((error as Error).message).toContain(message)
    expect((error as Error).message).not.toContain('sk-live-secret-1')
  })
})

describe('the spec\'s fields', () => {
  it('default_model / default_provider give every metric without its own model; top-level settings come after [llm_default]', async () => {
    byMetric()
    const result = await evaluate(parseMetricSuiteToml(`
default_model = "gpt-4o-mini"
default_provider = "openai"
temperature = 0.3
max_tokens = 200

[[metrics]]
name = "Relevance"
weight = 0.5

[[metrics]]
name = "Coverage"
weight = 0.5
model = "anthropic:claude-x"
temperature = 0.1
`), input, { providers: providers() })
    const sent = Object.fromEntries(fake.requests.map(r => [metricOf(r.body), [r.api, r.body.model, r.body.temperature, r.body.max_tokens]]))
    expect(sent).toEqual({ Relevance: ['openai', 'gpt-4o-mini', 0.3, 200], Coverage: ['anthropic', 'claude-x', 0.1, 200] })
    expect(result.evaluation_result!.overall_score).toBe(75)
    await expect(evaluate({ evaluation_type: 'metrics', model: 'openai:a', default_model: 'openai:b' }, input, { providers: providers() })).rejects.toThrow('default_model: give the model once: as model or as default_model, not both')
    await expect(evaluate({ evaluation_type: 'criteria', model: 'local:heuristic', default_model: 'openai:b' }, { content: 'x' }, { providers: providers() })).rejects.toThrow('default_model: is only used by evaluation_type "metrics"')
  })

  it('enabled_metrics: a metric not enabled is not called, and the enabled weights are rescaled', async () => {
    byMetric()
    const result = await evaluate(parseMetricSuiteToml(`
enabled_metrics = ["Relevance", "Coverage"]

[metric_weights]
Relevance = 0.5
ClarityCoherence = 0.3
Coverage = 0.2

[llm_default]
model = "openai:gpt-4o-mini"
`), input, { providers: providers() })
    expect(fake.requests.map(r => metricOf(r.body))).toEqual(['Relevance', 'Coverage'])
    expect(result.metric_weights).toEqual({ Relevance: 0.714286, Coverage: 0.285714 })
    // (90·0.5 + 60·0.2) / 0.7
    expect(result.evaluation_result).toEqual({
      metrics: [{ metric_name: 'Relevance', score: 90, evaluator_comment: 'Relevance comment' }, { metric_name: 'Coverage', score: 60, evaluator_comment: 'Coverage comment' }],
      overall_score: 81.428571,
    })
  })

  it('metric_weights weighs the listed metrics; enabled_metrics alone picks metrics with equal weights', async () => {
    byMetric()
    const weighted = await evaluate({ evaluation_type: 'metrics', model: 'openai:gpt-4o-mini', metrics: [{ name: 'Relevance' }, { name: 'Coverage' }], metric_weights: { Relevance: 0.75, Coverage: 0.25 } }, input, { providers: providers() })
    expect(weighted.evaluation_result!.overall_score).toBe(82.5)
    const enabled = await evaluate({ evaluation_type: 'metrics', model: 'openai:gpt-4o-mini', enabled_metrics: ['LLMPlain', 'Relevance'] }, input, { providers: providers() })
    expect(enabled.metrics!.map(m => m.metric_name)).toEqual(['LLMPlain', 'Relevance'])
    expect(enabled.evaluation_result!.overall_score).toBe(70)
  })

  it.each([
    [{ metrics: [{ name: 'Relevance', weight: 1 }], enabled_metrics: ['Coverage'] }, 'enabled_metrics[0]: "Coverage" is not one of the metrics of this suite (Relevance)'],
    [{ enabled_metrics: ['Fluency'] }, 'enabled_metrics[0]: unknown metric "Fluency"; available metrics: ClarityCoherence, Coverage, Relevance, LLMPlain'],
    [{ metric_weights: { Relevance: 0.5, Fluency: 0.5 } }, 'metric_weights.Fluency: unknown metric "Fluency"'],
    [{ metric_weights: { Relevance: 0.5, Coverage: 0.4 } }, 'metric_weights: weights must sum to 1.0, not 0.9'],
    [{ metrics: [{ name: 'Relevance', weight: 1 }], metric_weights: { Coverage: 1 } }, 'metric_weights.Coverage: "Coverage" is not one of the metrics in [[metrics]] (Relevance)'],
    [{ metrics: [{ name: 'Relevance', weight: 1 }], metric_weights: { Relevance: 0.5 } }, 'metrics[0].weight: 1 differs from metric_weights.Relevance (0.5): give the weight in one place'],
    [{ metrics: [{ name: 'Relevance', weight: 1 }, { name: 'Coverage', weight: 0 }], enabled_metrics: ['Coverage'] }, 'enabled_metrics: every enabled metric has weight 0'],
  ])('refuses at load: %#', async (suite, message) => {
    await expect(evaluate({ evaluation_type: 'metrics', model: 'openai:gpt-4o-mini', ...suite }, input, { providers: providers() })).rejects.toThrow(message)
    expect(fake.requests).toHaveLength(0)
  })
})

describe('one metric after another', () => {
  it('by default: never two judge calls at once, in the configured order', async () => {
    fake.onRequest(r => ({ delayMs: 30, json: { score: SCORES[metricOf(r.body)], evaluator_comment: 'ok' } }))
    await evaluate({ evaluation_type: 'metrics', model: 'openai:gpt-4o-mini', metrics: [{ name: 'Relevance' }, { name: 'Coverage' }, { name: 'ClarityCoherence' }] }, input, { providers: providers() })
    expect(fake.maxInFlight).toBe(1)
    expect(fake.requests.map(r => metricOf(r.body))).toEqual(['Relevance', 'Coverage', 'ClarityCoherence'])
  })

  it('concurrently only when the config asks for it', async () => {
    // Each answer waits until all three metrics have asked: only concurrent calls can finish.
    let release!: () => void
    const allAsked = new Promise<void>((resolve) => { release = resolve })
    fake.onRequest(async (r) => {
      if (fake.requests.length === 3) release()
      await allAsked
      return { json: { score: SCORES[metricOf(r.body)], evaluator_comment: 'ok' } }
    })
    const result = await evaluate({ evaluation_type: 'metrics', model: 'openai:gpt-4o-mini', concurrency: 3 }, input, { providers: providers() })
    expect(fake.maxInFlight).toBe(3)
    expect(result.metrics!.map(m => m.metric_name)).toEqual(['ClarityCoherence', 'Coverage', 'Relevance'])
  })
})
