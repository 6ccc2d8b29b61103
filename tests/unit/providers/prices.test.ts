import { afterEach, describe, expect, it } from 'vitest'
import { costOf, priceOf, setPriceOverrides } from '../../../engine/providers/prices'
import { estimateFromPrompts } from '../../../engine/datasets/estimate'

afterEach(() => setPriceOverrides(undefined))

describe('the price of a model', () => {
  it('gives a dated or versioned name its family\'s price', () => {
    expect(priceOf('openai:gpt-4o-mini-2024-07-18')).toEqual(priceOf('openai:gpt-4o-mini'))
    expect(priceOf('openai:gpt-4o-2024-08-06')).toEqual(priceOf('openai:gpt-4o'))
    expect(priceOf('anthropic:claude-3-5-sonnet-latest')).toEqual(priceOf('anthropic:claude-3-5-sonnet'))
    expect(priceOf('anthropic:claude-sonnet-4-5-20250929')).toEqual(priceOf('anthropic:claude-sonnet-4'))
  })

  it('never prices a misspelt or other model as its neighbour', () => {
    expect(priceOf('openai:gpt-4o')).toBeDefined()
    expect(priceOf('openai:gpt-4o-mni')).toBeUndefined()
    expect(costOf('openai:gpt-4o-mni', { input_tokens: 1000, output_tokens: 1000 })).toBeNull()
    expect(priceOf('openai:o1-pro')).toBeUndefined()
    expect(priceOf('openai:gpt-4o-audio-preview')).toBeUndefined()
  })

  it('matches configured prices by the same rule', () => {
    setPriceOverrides({ 'openai:house-model': [1, 2] })
    expect(priceOf('openai:house-model-2025-01-01')).toEqual({ input: 1e-6, output: 2e-6 })
    expect(priceOf('openai:house-model-large')).toBeUndefined()
  })

  it('leaves a misspelt model out of the cost estimate, named, rather than pricing it as another', () => {
    const nodes = [
      { id: 'in', type: 'input', config: { fields: { q: { type: 'string' } } } },
      { id: 'draft', type: 'llm', config: { model: 'openai:gpt-4o-mni', prompt: 'Answer {{input.q}}' } },
    ]
    const estimate = estimateFromPrompts({ nodes }, [{ id: 'a', input: { q: 'hi' } }], 1, 'local:heuristic')
    expect(estimate.estimate_usd).toBeNull()
    expect(estimate.unpriced).toEqual(['openai:gpt-4o-mni'])
  })
})
