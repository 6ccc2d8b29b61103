import { describe, expect, it } from 'vitest'
import { applyInputFields } from '../../../engine/steps/input'

describe('the input step', () => {
  it('treats an input field named constructor as an ordinary field', () => {
    const config = { fields: { constructor: { type: 'string' as const, required: true } } }
    expect(() => applyInputFields(config, {}, 'in')).toThrow('input "constructor" is required (node "in")')
    expect(applyInputFields(config, JSON.parse('{"constructor":"c"}'), 'in')).toEqual({ constructor: 'c' })
  })
})
