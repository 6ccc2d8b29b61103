/**
 * The metric suite against its spec: an unknown enabled metric is a load-time error listing the
 * available ones; a provider without a model is that provider's default model; a global
 * default_provider is honoured; LLM settings on a metric computed in code have no effect, and
 * the result says so.
 */
import { describe, expect, it } from 'vitest'
import { evaluate, MetricRegistry, parseMetricSuiteToml } from '../../../engine'
import { suiteInput as input, useFakeJudge } from '../../support/fake-judge'

const { fake, providers } = useFakeJudge()
const answer = () => fake.onRequest(() => ({ json: { score: 80, evaluator_comment: 'fine' } }))
const openaiOnly = () => ({ OPENAI_API_KEY: 'k', OPENAI_BASE_URL: fake.env().OPENAI_BASE_URL! })

describe('enabled_metrics', () => {
  it.each([
    ['[[metrics]]\nname = "Relevance"\nweight = 1.0\n', 'enabled_metrics = ["Relevance", "Fooo"]'],
    ['[metric_weights]\nRelevance = 1.0\n', 'enabled_metrics = ["Relevance", "Fooo"]'],
  ])('an unknown name is an error before any call, listing the available metrics (%#)', async (listed, enabled) => {
    answer()
    const config = parseMetricSuiteToml(`model = "openai:gpt-4o-mini"\n${enabled}\n${listed}`)
    await expect(evaluate(config, input, { providers: providers() }))
      .rejects.toThrow('enabled_metrics[1]: unknown metric "Fooo"; available metrics: ClarityCoherence, Coverage, Relevance, LLMPlain')
    expect(fake.requests).toHaveLength(0)
  })
})

describe('a provider without a model', () => {
  it('on a metric is that provider\'s default model', async () => {
    answer()
    const result = await evaluate({ evaluation_type: 'metrics', metrics: [{ name: 'Relevance', provider: 'openai' }] }, input, { providers: providers(openaiOnly()) })
    expect(fake.requests.map(r => [r.api, r.body.model])).toEqual([['openai', 'gpt-4o-mini']])
    expect(result.judge.model).toBe('openai:gpt-4o-mini')
  })

  it('in [llm_default] is that provider\'s default model', async () => {
    answer()
    await evaluate(parseMetricSuiteToml('[llm_default]\nprovider = "openai"\n[[metrics]]\nname = "Relevance"\n'), input, { providers: providers(openaiOnly()) })
    expect(fake.requests.map(r => [r.api, r.body.model])).toEqual([['openai', 'gpt-4o-mini']])
  })

  it('a global default_provider is honoured by every metric that names no model', async () => {
    answer()
    const result = await evaluate(parseMetricSuiteToml('default_provider = "openai"\n[[metrics]]\nname = "Relevance"\nweight = 0.5\n[[metrics]]\nname = "Coverage"\nweight = 0.5\n'), input, { providers: providers(openaiOnly()) })
    expect(fake.requests.map(r => [r.api, r.body.model])).toEqual([['openai', 'gpt-4o-mini'], ['openai', 'gpt-4o-mini']])
    expect(result.judge.model).toBe('openai:gpt-4o-mini')
  })

  it('a provider with no default model is refused, naming the field and the providers that have one', async () => {
    await expect(evaluate({ evaluation_type: 'metrics', metrics: [{ name: 'Relevance', provider: 'mistral' }] }, input, { providers: providers() }))
      .rejects.toThrow('metrics[0].provider: "mistral" has no default model: name one with model (providers with a default model: openai, anthropic)')
  })
})

describe('LLM settings on a metric computed in code', () => {
  it('are ignored, and the result says they have no effect', async () => {
    const registry = new MetricRegistry()
    registry.register({ name: 'WordBudget', description: 'x', score: () => ({ score: 100, evaluator_comment: 'short' }) })
    const result = await evaluate({
      evaluation_type: 'metrics',
      // A model without its provider is refused on an LLM metric; here it is only named as unused.
      metrics: [{ name: 'WordBudget', model: 'gpt-4o', temperature: 0.3, system_instruction: 'Be strict.' }],
    }, input, { providers: providers({}), metrics: registry })
    expect(result.overall_score).toBe(1)
    expect(fake.requests).toHaveLength(0)
    expect(result.warnings).toEqual(['metric "WordBudget" is computed in code: its model, system_instruction and temperature have no effect.'])
  })
})

describe('team_id', () => {
  it('is handed back in the result as given, and plays no part in judging', async () => {
    const config = { evaluation_type: 'metrics', model: 'local:heuristic' }
    const plain = await evaluate(config, input, { providers: providers({}) })
    const withTeam = await evaluate(config, { ...input, team_id: 'team-7' }, { providers: providers({}) })
    expect(withTeam.team_id).toBe('team-7')
    expect(plain.team_id).toBeUndefined()
    expect(withTeam.overall_score).toBe(plain.overall_score)
  })
})
