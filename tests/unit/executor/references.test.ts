import { describe, expect, it } from 'vitest'
import { findReferences, parseReference, renderTemplate, renderValue } from '../../../engine'

const scope = {
  input: { question: 'Why?', items: [{ name: 'first' }], n: 3 },
  steps: new Map<string, unknown>([['judge', { passed: true, overall_score: 0.85, criteria_scores: { 'tone of voice': 0.5 }, feedback: 'more detail' }]]),
  attempt: 2,
}

describe('references', () => {
  it('interpolates inside text, objects as JSON', () => {
    expect(renderTemplate('Q: {{input.question}} ({{ attempt }}) {{steps.judge.criteria_scores}}', scope))
      .toBe('Q: Why? (2) {"tone of voice":0.5}')
  })

  it('keeps the type of a whole-value reference', () => {
    expect(renderTemplate('{{steps.judge.passed}}', scope)).toBe(true)
    expect(renderTemplate('{{ input.n }}', scope)).toBe(3)
    expect(renderTemplate('{{input.items}}', scope)).toEqual([{ name: 'first' }])
  })

  it('looks up indexes and quoted keys', () => {
    expect(renderTemplate('{{input.items[0].name}}', scope)).toBe('first')
    expect(renderTemplate('{{steps.judge.criteria_scores["tone of voice"]}}', scope)).toBe(0.5)
  })

  it('renders references to steps that have not run, or missing paths, as empty strings', () => {
    expect(renderTemplate('{{steps.later.text}}', scope)).toBe('')
    expect(renderTemplate('x{{input.nope.deeper}}y', scope)).toBe('xy')
  })

  it('is a lookup, never code', () => {
    expect(() => parseReference('input.constructor')).toThrow('"constructor" cannot be looked up')
    expect(() => parseReference('process.exit()')).toThrow('must start with input., steps.<nodeId>. or env., or be attempt')
    expect(renderTemplate('{{input.question.length}}', scope)).toBe('')
  })

  it('leaves {{env.NAME}} as written: only the step that sends it puts the value in', () => {
    expect(parseReference('env.API_TOKEN')).toEqual({ root: 'env', path: ['API_TOKEN'] })
    expect(renderTemplate('Bearer {{env.API_TOKEN}}', scope)).toBe('Bearer {{env.API_TOKEN}}')
    expect(renderTemplate('{{ env.API_TOKEN }}', scope)).toBe('{{env.API_TOKEN}}')
    expect(() => parseReference('env')).toThrow('env. takes one environment variable\'s name, such as env.API_TOKEN')
    expect(() => parseReference('env.A.B')).toThrow('env. takes one environment variable\'s name')
    expect(() => parseReference('env["a-b"]')).toThrow('env. takes one environment variable\'s name')
  })

  it('renders every string in a config', () => {
    expect(renderValue({ a: ['{{attempt}}', { b: '{{input.question}}' }], c: 1 }, scope)).toEqual({ a: [2, { b: 'Why?' }], c: 1 })
  })

  it('finds references with their field paths and reports bad ones', () => {
    const found = findReferences({ prompt: 'a {{steps.x.text}}', list: ['{{bogus}}'] })
    expect(found.map(f => [f.field, f.reference?.nodeId ?? f.error])).toEqual([
      ['prompt', 'x'],
      ['list[0]', '"{{bogus}}" is not a reference: it must start with input., steps.<nodeId>. or env., or be attempt'],
    ])
  })
})
