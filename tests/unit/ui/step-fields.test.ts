import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { configText, isMultiline, parseField, pinFromOutput, pinnedFromRows, pinnedRows } from '../../../app/utils/step-fields'
import { builtinStepSpecs } from '../../../engine/steps/specs'

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

  it('shows values as text', () => {
    expect(configText(undefined)).toBe('')
    expect(configText('x')).toBe('x')
    expect(configText({ a: 1 })).toBe('{\n  "a": 1\n}')
  })

  it('reads pinned outputs one box each: text of several lines as it is, JSON only in a JSON box', () => {
    expect(pinnedRows(['line one\nline two', { text: 'second' }])).toEqual([
      { json: false, text: 'line one\nline two' }, { json: true, text: '{\n  "text": "second"\n}' }])
    expect(pinnedFromRows([{ json: false, text: 'line one\nline two' }, { json: false, text: '' }, { json: false, text: '{"text":"not parsed"}' }, { json: true, text: '{"text":"second"}' }]))
      .toEqual({ value: ['line one\nline two', '{"text":"not parsed"}', { text: 'second' }] })
    expect(pinnedFromRows([{ json: false, text: 'a' }, { json: true, text: '[1]' }])).toEqual({ invalid: 1 })
    expect(pinnedFromRows([{ json: true, text: '{ broken' }])).toEqual({ invalid: 0 })
  })

  it('pins an LLM answer as its text and an evaluator\'s result as it is', () => {
    expect(pinFromOutput('llm', { text: 'Four.', model: 'openai:gpt-4o-mini', usage: { input_tokens: 3 } })).toBe('Four.')
    expect(pinFromOutput('evaluator', { passed: true, overall_score: 0.9 })).toEqual({ passed: true, overall_score: 0.9 })
    expect(pinFromOutput('llm', 'plain')).toBeUndefined()
    expect(pinFromOutput('llm', null)).toBeUndefined()
  })

  it('gives a text area to the texts each step\'s schema says are long (its JSON Schema, as the editor is sent it), and to values that may be JSON', () => {
    type Field = { type?: unknown, enum?: unknown, multiline?: unknown }
    const long: string[] = []
    for (const spec of builtinStepSpecs) {
      const schema = z.toJSONSchema(spec.configSchema, { unrepresentable: 'any', io: 'input' }) as { properties?: Record<string, Field> }
      for (const [key, field] of Object.entries(schema.properties ?? {})) {
        if (field.type === 'string' && !field.enum && isMultiline(field, 'string')) long.push(`${spec.type}.${key}`)
      }
    }
    expect(long).toEqual(['llm.prompt', 'llm.system', 'retry.reason'])
    expect(isMultiline({}, 'json-or-text')).toBe(true)
    expect(isMultiline({}, 'json')).toBe(true)
    expect(isMultiline({}, 'string')).toBe(false)
  })
})
