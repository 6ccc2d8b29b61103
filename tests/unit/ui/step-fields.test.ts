import { describe, expect, it } from 'vitest'
import { configText, parseField, parsePinned, pinnedText } from '../../../app/utils/step-fields'

describe('a step form\'s fields as text and back', () => {
  it('reads what is typed as the field\'s kind; empty unsets it', () => {
    expect(parseField('0.5', 'number')).toBe(0.5)
    expect(parseField('', 'integer')).toBeUndefined()
    expect(parseField('{"a":1}', 'json')).toEqual({ a: 1 })
    expect(parseField('{"a":', 'json')).toBe('{"a":')
    expect(parseField('  ', 'json')).toBeUndefined()
    expect(parseField('{{steps.draft.text}}', 'json-or-text')).toBe('{{steps.draft.text}}')
    expect(parseField('[1, 2]', 'json-or-text')).toEqual([1, 2])
    expect(parseField('plain words', 'json-or-text')).toBe('plain words')
    expect(parseField('', 'json-or-text')).toBeUndefined()
    expect(parseField('text', 'string')).toBe('text')
  })

  it('shows values as text and reads pinned outputs one per line', () => {
    expect(configText(undefined)).toBe('')
    expect(configText('x')).toBe('x')
    expect(configText({ a: 1 })).toBe('{\n  "a": 1\n}')
    expect(parsePinned('first\n\n{"text":"second"}\n[1]')).toEqual(['first', { text: 'second' }, '[1]'])
    expect(pinnedText(['first', { text: 'second' }])).toBe('first\n{"text":"second"}')
  })
})
