import { describe, expect, it } from 'vitest'
import { checksOf } from '../../../engine/datasets/case-checks'

describe('a case\'s checks in the report', () => {
  it('lists each assertion\'s parts after it (an assert-set\'s members, a script grade\'s componentResults), then the test\'s named scores, as promptfoo lists them', () => {
    const evaluation = {
      assertions: [
        {
          type: 'javascript', pass: false, score: 0.5, reason: 'city true, short false', weight: 1,
          components: [{ type: 'javascript', pass: true, score: 1, reason: 'names the city', weight: 1 }, { type: 'contains', metric: 'brevity', pass: false, score: 0, reason: 'is short', weight: 1 }],
        },
        { type: 'assert-set', pass: true, score: 1, reason: 'All assertions passed', weight: 1, components: [{ type: 'contains', pass: true, score: 1, reason: 'Assertion passed', weight: 1 }] },
      ],
      named_scores: { city: 1, brevity: 0 },
    }
    expect(checksOf(evaluation)).toEqual([
      { name: 'javascript', passed: false, score: 0.5, reason: 'city true, short false' },
      { name: 'javascript › javascript', passed: true, score: 1, reason: 'names the city' },
      { name: 'javascript › contains (brevity)', passed: false, score: 0, reason: 'is short' },
      { name: 'assert-set', passed: true, score: 1, reason: 'All assertions passed' },
      { name: 'assert-set › contains', passed: true, score: 1, reason: 'Assertion passed' },
      { name: 'named score: city', passed: null, score: 1, reason: null },
      { name: 'named score: brevity', passed: null, score: 0, reason: null },
    ])
  })
})
