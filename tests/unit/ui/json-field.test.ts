import { describe, expect, it } from 'vitest'
import { jsonText, readJsonText } from '../../../app/utils/json-field'

describe('a JSON field (an http step\'s body, a code step\'s input) as text and back', () => {
  it('reads JSON or a lone reference, and says why other text is not JSON', () => {
    expect(readJsonText('')).toEqual({ ok: true, value: undefined })
    expect(readJsonText('{"q": "{{input.question}}"}')).toEqual({ ok: true, value: { q: '{{input.question}}' } })
    expect(readJsonText(' {{input.payload}} ')).toEqual({ ok: true, value: '{{input.payload}}' })
    expect(readJsonText('"plain text"')).toEqual({ ok: true, value: 'plain text' })
    const half = readJsonText('{"q": ')
    expect(half.ok).toBe(false)
    expect(!half.ok && half.reason).toMatch(/^is not valid JSON: /)
  })

  it('shows a value as indented JSON, a lone reference as written, and reads back what it shows', () => {
    for (const value of [{ q: 'x', n: [1, 2] }, 'text', 3, '{{input.payload}}']) {
      const read = readJsonText(jsonText(value))
      expect(read.ok && read.value).toEqual(value)
    }
    expect(jsonText(undefined)).toBe('')
  })
})
