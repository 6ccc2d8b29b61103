import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { evaluate, loadMetricsFolder, MetricRegistry, parseMetricSuiteToml, readEvaluatorConfigFile } from '../../../engine'
import { suiteInput, useFakeJudge } from '../../support/fake-judge'

const { fake, providers } = useFakeJudge()
const input = suiteInput
const dir = mkdtempSync(join(tmpdir(), 'judgeflow-metrics-'))
const file = (name: string, text: string) => {
  const path = join(dir, name)
  writeFileSync(path, text)
  return path
}
/** Which built-in metric a request is for, from its system instruction. */
const metricOf = (system: string) => (system.includes('clarity and coherence') ? 'ClarityCoherence' : system.includes('coverage') ? 'Coverage' : system.includes('relevance') ? 'Relevance' : 'LLMPlain')
const systemOf = (body: any): string => (typeof body.system === 'string' ? body.system : body.messages[0].content)

describe('metric suite', () => {
  it('scores each metric in its own call, 0–100, and weights them into one EvaluationResult', async () => {
    fake.onRequest((r) => {
      const name = metricOf(systemOf(r.body))
      return { json: { score: { ClarityCoherence: 80, Coverage: 60, Relevance: 90, LLMPlain: 0 }[name], evaluator_comment: `${name} comment` } }
    })
    const toml = `
[llm_default]
model = "openai:gpt-4o-mini"

[[metrics]]
name = "Relevance"
weight = 0.5

[[metrics]]
name = "ClarityCoherence"
weight = 0.3

[[metrics]]
name = "Coverage"
weight = 0.2
`
    const result = await evaluate(parseMetricSuiteToml(toml), input, { providers: providers() })
    expect(fake.requests).toHaveLength(3)
    expect(result.evaluation_result).toEqual({
      metrics: [
        { metric_name: 'Relevance', score: 90, evaluator_comment: 'Relevance comment' },
        { metric_name: 'ClarityCoherence', score: 80, evaluator_comment: 'ClarityCoherence comment' },
        { metric_name: 'Coverage', score: 60, evaluator_comment: 'Coverage comment' },
      ],
      overall_score: 81,
    })
    expect(result).toMatchObject({ overall_score: 0.81, passed: true, criteria_scores: { Relevance: 0.9, ClarityCoherence: 0.8, Coverage: 0.6 } })
  })

  it('uses the three default metrics with equal weights when none are listed', async () => {
    fake.onRequest(() => ({ json: { score: 60, evaluator_comment: 'ok' } }))
    const result = await evaluate({ evaluation_type: 'metrics', model: 'openai:gpt-4o-mini' }, input, { providers: providers() })
    expect(result.metrics!.map(m => m.metric_name)).toEqual(['ClarityCoherence', 'Coverage', 'Relevance'])
    expect(result.evaluation_result!.overall_score).toBe(60)
  })

  it('routes each metric to its own model: metric → llm_default → built-in default', async () => {
    fake.onRequest(() => ({ json: { score: 70, evaluator_comment: 'ok' } }))
    const toml = `
[llm_default]
model = "anthropic:claude-sonnet-4-5-20250929"
temperature = 0.2
max_tokens = 300

[[metrics]]
name = "ClarityCoherence"
weight = 0.5
provider = "openai"
model = "gpt-4o-mini"
temperature = 0.0

[[metrics]]
name = "Relevance"
weight = 0.5
`
    await evaluate(parseMetricSuiteToml(toml), input, { providers: providers() })
    const byMetric = Object.fromEntries(fake.requests.map(r => [metricOf(systemOf(r.body)), r]))
    expect(byMetric.ClarityCoherence).toMatchObject({ api: 'openai', body: { model: 'gpt-4o-mini', temperature: 0, max_tokens: 300 } })
    expect(byMetric.Relevance).toMatchObject({ api: 'anthropic', body: { model: 'claude-sonnet-4-5-20250929', temperature: 0.2, max_tokens: 300 } })
  })

  it('replaces a built-in metric\'s instruction with system_instruction', async () => {
    fake.onRequest(() => ({ json: { score: 50, evaluator_comment: 'ok' } }))
    await evaluate({ evaluation_type: 'metrics', model: 'openai:gpt-4o-mini', metrics: [{ name: 'ClarityCoherence', system_instruction: 'Judge only the spelling.' }] }, input, { providers: providers() })
    expect(systemOf(fake.requests[0]!.body)).toMatch(/^Judge only the spelling\./)
  })

  it('is all or nothing: one metric failing after its retries fails the evaluation, naming it', async () => {
    fake.onRequest(r => (metricOf(systemOf(r.body)) === 'Coverage' ? { status: 500 } : { json: { score: 80, evaluator_comment: 'ok' } }))
    await expect(evaluate({ evaluation_type: 'metrics', model: 'openai:gpt-4o-mini', sequential: true, metrics: [{ name: 'Relevance', max_retries: 0 }, { name: 'Coverage', max_retries: 1 }] }, input, { providers: providers() }))
      .rejects.toThrow(/The judge openai:gpt-4o-mini failed for metric "Coverage": openai:gpt-4o-mini answered HTTP 500.*\(after 2 calls\)/)
  })

  it('re-asks a score out of range, then fails naming the metric', async () => {
    fake.onRequest(() => ({ json: { score: 140, evaluator_comment: 'too generous' } }))
    await expect(evaluate({ evaluation_type: 'metrics', model: 'openai:gpt-4o-mini', metrics: [{ name: 'Relevance', max_retries: 1 }] }, input, { providers: providers() }))
      .rejects.toThrow('gave no valid answer for metric "Relevance" in 2 tries: score 140 is not a number from 0 to 100')
  })

  it('refuses an empty submission and a missing key before any call', async () => {
    await expect(evaluate({ evaluation_type: 'metrics', model: 'openai:gpt-4o-mini' }, { ...input, submission: '   ' }, { providers: providers() })).rejects.toThrow('The submission to evaluate is empty')
    await expect(evaluate({ evaluation_type: 'metrics', model: 'openai:gpt-4o-mini', metrics: [{ name: 'Relevance', model: 'anthropic:claude-x' }] }, input, { providers: providers({ OPENAI_API_KEY: 'k' }) }))
      .rejects.toThrow('ANTHROPIC_API_KEY is not set: metric "Relevance" uses anthropic:claude-x')
    expect(fake.requests).toHaveLength(0)
  })

  it.each([
    ['[[metrics]]\nname = "Relevance"\nweight = 0.7\n[[metrics]]\nname = "Coverage"\nweight = 0.2', 'metrics: weights must sum to 1.0, not 0.9 (Relevance 0.7, Coverage 0.2)'],
    ['[[metrics]]\nname = "Relevance"\nweight = -0.5\n[[metrics]]\nname = "Coverage"\nweight = 1.5', 'metrics[0].weight: must not be negative'],
    ['[[metrics]]\nname = "Fluency"', 'metrics[0].name: unknown metric "Fluency"; available metrics: ClarityCoherence, Coverage, Relevance, LLMPlain'],
    ['[[metrics]]\nname = "Relevance"\nmodel = "gpt-4o"', 'metrics[0].model: must be "provider:model"'],
    ['[llm_default]\ntemperature = -1\n[[metrics]]\nname = "Relevance"', 'llm_default.temperature: must not be negative'],
    ['[[metrics]]\nname = "Relevance"\ntemperature = -0.1', 'metrics[0].temperature: must not be negative'],
    ['[[metrics]\nname = ', 'is not valid TOML'],
  ])('validates the TOML at load: %#', async (toml, message) => {
    await expect(async () => evaluate(parseMetricSuiteToml(`model = "openai:gpt-4o-mini"\n${toml}`), input, { providers: providers() })).rejects.toThrow(message)
    expect(fake.requests).toHaveLength(0)
  })

  it('reads a changed TOML file at the next evaluation, without a restart', async () => {
    const path = file('suite.toml', 'model = "local:heuristic"\n[[metrics]]\nname = "Relevance"\nweight = 1.0\n')
    const first = await evaluate(await readEvaluatorConfigFile(path), input, { providers: providers({}) })
    writeFileSync(path, 'model = "local:heuristic"\n[[metrics]]\nname = "Relevance"\nweight = 0.5\n[[metrics]]\nname = "ClarityCoherence"\nweight = 0.5\n# changed\n')
    const second = await evaluate(await readEvaluatorConfigFile(path), input, { providers: providers({}) })
    expect(first.metrics!.map(m => m.metric_name)).toEqual(['Relevance'])
    expect(second.metrics!.map(m => m.metric_name)).toEqual(['Relevance', 'ClarityCoherence'])
  })

  it('scores offline with local:heuristic', async () => {
    const result = await evaluate({ evaluation_type: 'metrics', model: 'local:heuristic', metrics: [{ name: 'Relevance' }, { name: 'LLMPlain' }] }, input, { providers: providers({}) })
    expect(result.metrics!.every(m => m.score >= 0 && m.score <= 100)).toBe(true)
    expect(result.judge.heuristic).toBe(true)
    expect(result.confidence).toBeLessThanOrEqual(0.5)
  })
})

describe('custom metrics', () => {
  it('are modules found by name through the registry, loaded from a folder', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'judgeflow-custom-'))
    writeFileSync(join(folder, 'word-budget.mjs'), `export default {
  name: 'WordBudget',
  description: 'At most 20 words.',
  score: ({ submission }) => {
    const words = submission.trim().split(/\\s+/).length
    return { score: words <= 20 ? 100 : Math.max(0, 100 - (words - 20) * 5), evaluator_comment: words + ' words' }
  },
}
`)
    writeFileSync(join(folder, 'politeness.mjs'), `export const metric = { name: 'Politeness', description: 'Polite tone.', systemInstruction: 'Judge politeness only.' }\n`)
    const registry = new MetricRegistry()
    expect(await loadMetricsFolder(folder, registry)).toEqual(['Politeness', 'WordBudget'])
    fake.onRequest(() => ({ json: { score: 40, evaluator_comment: 'curt' } }))
    const result = await evaluate({ evaluation_type: 'metrics', model: 'openai:gpt-4o-mini', metrics: [{ name: 'WordBudget', weight: 0.5 }, { name: 'Politeness', weight: 0.5 }] }, input, { providers: providers(), metrics: registry })
    expect(result.metrics).toEqual([
      { metric_name: 'WordBudget', score: 100, evaluator_comment: '10 words' },
      { metric_name: 'Politeness', score: 40, evaluator_comment: 'curt' },
    ])
    expect(fake.requests).toHaveLength(1)
    expect(systemOf(fake.requests[0]!.body)).toMatch(/^Judge politeness only\./)
  })

  it('the registry refuses a metric without an instruction or a score function, and duplicates', () => {
    const registry = new MetricRegistry()
    expect(() => registry.register({ name: 'Empty', description: 'x' })).toThrow('metric "Empty" needs a systemInstruction or a score function')
    expect(() => registry.register({ name: 'Relevance', description: 'x', systemInstruction: 'y' })).toThrow('metric "Relevance" is registered twice')
  })
})

describe('edge cases found in review', () => {
  it('applies the default provider to a metric that names only a model', async () => {
    fake.onRequest(() => ({ json: { score: 70, evaluator_comment: 'ok' } }))
    const result = await evaluate(parseMetricSuiteToml('default_provider = "anthropic"\n[[metric]]\nname = "Relevance"\nmodel = "claude-x"\n'), input, { providers: providers() })
    expect(fake.requests[0]).toMatchObject({ api: 'anthropic', body: { model: 'claude-x' } })
    expect(result.judge.model).toBe('anthropic:claude-x')
    // A provider without a model is that provider's default model (metric-suite-providers.test.ts).
  })

  it('a custom metric out of range is an error naming it, never a score', async () => {
    const registry = new MetricRegistry()
    registry.register({ name: 'Generous', description: 'x', score: () => ({ score: 150, evaluator_comment: 'wow' }) })
    await expect(evaluate({ evaluation_type: 'metrics', model: 'local:heuristic', metrics: [{ name: 'Generous' }] }, input, { providers: providers(), metrics: registry }))
      .rejects.toThrow('Metric "Generous" returned an invalid result: score 150 is not a number from 0 to 100.')
  })
})
