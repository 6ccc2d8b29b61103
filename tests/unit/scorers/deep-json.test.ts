import { expect, it } from 'vitest'
import { defaultScorerRegistry } from '../../../engine'
import { MAX_VALUE_DEPTH } from '../../../engine/text/safe-json'

const measure = (type: string, actual: unknown, expected: unknown) => defaultScorerRegistry.get(type)!.measure(actual, expected, { original: {}, options: {} })
const deep = (levels: number) => `${'['.repeat(levels)}${']'.repeat(levels)}`

it('JSON text nested past the depth values may have scores 0 with the reason, in every JSON scorer, instead of overflowing the stack', () => {
  for (const type of ['json-diff', 'json-valid', 'json-schema']) {
    const result = measure(type, deep(200_000), type === 'json-schema' ? { type: 'array' } : '[]')
    expect(result.score, type).toBe(0)
    expect(JSON.stringify(result.details), type).toContain(`nests objects and arrays more than ${MAX_VALUE_DEPTH} levels deep`)
  }
  expect(measure('json-diff', deep(MAX_VALUE_DEPTH), deep(MAX_VALUE_DEPTH)).score).toBe(1)
})
