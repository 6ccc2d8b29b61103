import { describe, expect, it } from 'vitest'
import { normalizedWeights, weightsWithOneMore } from '../../../app/utils/weights'

const sum = (weights: number[]) => Math.round(weights.reduce((s, w) => s + w, 0) * 1000) / 1000

describe('weights that sum to 1', () => {
  it('an item added takes an equal share; the others keep their proportions in the rest', () => {
    expect(weightsWithOneMore([])).toEqual([1])
    expect(weightsWithOneMore([1])).toEqual([0.5, 0.5])
    expect(weightsWithOneMore([0.5, 0.5])).toEqual([0.333, 0.333, 0.334])
    expect(weightsWithOneMore([0.6, 0.4])).toEqual([0.4, 0.267, 0.333])
    expect(sum(weightsWithOneMore([0.4, 0.3, 0.3]))).toBe(1)
  })
  it('weights that were all 0 become equal', () => {
    expect(weightsWithOneMore([0, 0])).toEqual([0.333, 0.333, 0.334])
    expect(normalizedWeights([0, 0, 0, 0])).toEqual([0.25, 0.25, 0.25, 0.25])
  })
  it('normalizing keeps the proportions, the last taking the rounding', () => {
    expect(normalizedWeights([0.2, 0.6])).toEqual([0.25, 0.75])
    expect(normalizedWeights([1, 1, 1])).toEqual([0.333, 0.333, 0.334])
  })
})
