/**
 * What each scorer says it reads (engine/scorers/inputs.ts) against what it does: a text scorer
 * scores plain text, a document-edit scorer refuses it; a list needs what its most demanding
 * scorer needs; a custom scorer may say, and is refused when it says something unknown.
 */
import { describe, expect, it } from 'vitest'
import { builtinScorers, SCORER_PRESETS } from '../../../engine'
import { inputOfList, SCORER_INPUTS } from '../../../engine/scorers/inputs'
import { ScorerRegistry } from '../../../engine/scorers/registry'

const options: Record<string, Record<string, unknown>> = { 'exact-match': { value: 'x' }, 'contains': { values: ['x'] }, 'regex': { pattern: 'x' }, 'levenshtein': { value: 'x' }, 'numeric-diff': { value: 2 } }

describe('what a scorer reads', () => {
  it('every built-in scorer declares one of the known inputs', () => {
    for (const scorer of builtinScorers) expect(Object.keys(SCORER_INPUTS), scorer.type).toContain(scorer.input)
  })

  it.each(builtinScorers.filter(s => s.input === 'text').map(s => s.type))('%s (text) scores plain text', (type) => {
    const scorer = builtinScorers.find(s => s.type === type)!
    // A number scorer reads a number written as text.
    const { score } = scorer.measure(type === 'numeric-diff' ? '2.5' : 'some text', undefined, { original: undefined, options: options[type] ?? {} })
    expect(score).toBeGreaterThanOrEqual(0)
  })

  it.each(builtinScorers.filter(s => s.input === 'document-edit').map(s => s.type))('%s (document edits) refuses plain text', (type) => {
    const scorer = builtinScorers.find(s => s.type === type)!
    expect(() => scorer.measure('some text', { operations: [] }, { original: { blocks: [] }, options: {}, run: {} })).toThrow(`Scorer "${type}": actual`)
  })

  it('a list needs what its most demanding scorer needs; one of unknown input counts for nothing', () => {
    expect(inputOfList([])).toBe('text')
    expect(inputOfList(['text', undefined])).toBe('text')
    expect(inputOfList(['json', 'text'])).toBe('json')
    expect(inputOfList(['text', 'document-edit', 'json'])).toBe('document-edit')
  })

  it('the ready-made presets are lists of document-edit scorers', () => {
    const inputOf = (type: string) => builtinScorers.find(s => s.type === type)!.input
    for (const list of Object.values(SCORER_PRESETS)) expect(inputOfList(list.map(s => inputOf(s.type)))).toBe('document-edit')
  })

  it('a custom scorer may say what it reads; an unknown input is refused', () => {
    const registry = new ScorerRegistry([])
    registry.register({ type: 'mine', input: 'json', score: () => 1 })
    registry.register({ type: 'silent', score: () => 1 })
    expect(registry.get('mine')!.input).toBe('json')
    expect(registry.get('silent')!.input).toBeUndefined()
    expect(() => registry.register({ type: 'odd', input: 'xml' as 'json', score: () => 1 })).toThrow('The scorer "odd": input must be one of text, json, document-edit.')
  })
})
