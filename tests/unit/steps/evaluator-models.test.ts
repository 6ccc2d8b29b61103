import { describe, expect, it } from 'vitest'
import { evaluatorStep } from '../../../engine/steps/evaluator'
import { METRIC_DEFAULT_MODEL } from '../../../engine/evaluation-types/metrics/spec'

// The models whose keys a run checks before it starts: the evaluator's own rule of which models it calls.
function modelsOf(config: Record<string, unknown>): string[] {
  const models = evaluatorStep.modelOf!(config as never) ?? []
  return typeof models === 'string' ? [models] : [...models]
}

describe('the models an evaluator step calls', () => {
  it('is the judge it names, and none for the offline judge or a type that calls no model', () => {
    expect(modelsOf({ evaluation_type: 'criteria', model: 'openai:gpt-4o', criteria: [{ name: 'accuracy' }] })).toEqual(['openai:gpt-4o'])
    expect(modelsOf({ evaluation_type: 'criteria', provider: 'anthropic', model: 'claude-sonnet-4-5-20250929', criteria: [{ name: 'accuracy' }] }))
      .toEqual(['anthropic:claude-sonnet-4-5-20250929'])
    expect(modelsOf({ evaluation_type: 'scoring', model: 'local:heuristic' })).toEqual([])
    expect(modelsOf({ evaluation_type: 'scorers', preset: 'strict' })).toEqual([])
  })

  it('is every model of a metric suite: each metric\'s own, the suite\'s shared one, and the built-in default where neither is set', () => {
    expect(modelsOf({
      evaluation_type: 'metrics',
      llm_default: { model: 'openai:gpt-4o-mini' },
      metrics: [{ name: 'Relevance', weight: 0.5, model: 'anthropic:claude-haiku-4-5' }, { name: 'Coverage', weight: 0.5 }],
    }).sort()).toEqual(['anthropic:claude-haiku-4-5', 'openai:gpt-4o-mini'])
    expect(modelsOf({ evaluation_type: 'metrics', metrics: [{ name: 'Coverage', weight: 1 }] })).toEqual([METRIC_DEFAULT_MODEL])
  })

  it('is the judge the step names when its settings are in a config file, read only when it runs', () => {
    expect(modelsOf({ config_file: 'judge.toml', model: 'openai:gpt-4o' })).toEqual(['openai:gpt-4o'])
    expect(modelsOf({ config_file: 'judge.toml' })).toEqual([])
  })

  it('is none for a config the validation refuses, which names its fields instead', () => {
    expect(modelsOf({ evaluation_type: 'criteria', model: 'openai:gpt-4o', pass_threshold: 7 })).toEqual([])
  })
})
