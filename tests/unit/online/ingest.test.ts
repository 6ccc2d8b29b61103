import { describe, expect, it } from 'vitest'
import { boundedAttributes, DROPPED_ATTRIBUTES, STORED_ATTRIBUTES_CHARS } from '../../../core/online/ingest'

describe('a stored span\'s attributes', () => {
  it('keeps the attributes in order while their JSON fits, and names those that do not fit', () => {
    const big = 'x'.repeat(STORED_ATTRIBUTES_CHARS / 2)
    const kept = boundedAttributes({ 'gen_ai.operation.name': 'chat', 'a': big, 'b': big, 'c': 1 })
    expect(Object.keys(kept)).toEqual(['gen_ai.operation.name', 'a', 'c', DROPPED_ATTRIBUTES])
    expect(kept[DROPPED_ATTRIBUTES]).toEqual(['b'])
    expect(JSON.stringify(kept).length).toBeLessThanOrEqual(STORED_ATTRIBUTES_CHARS + 100)
    expect(boundedAttributes({ a: 1 })).toEqual({ a: 1 })
  })
})
