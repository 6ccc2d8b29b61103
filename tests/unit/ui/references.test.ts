import { describe, expect, it } from 'vitest'
import { applyCompletion, completions, openReference, referencesFor, upstreamOf } from '../../../app/utils/references'

const doc = {
  nodes: [
    { id: 'in', type: 'input', config: { fields: { question: {} } } },
    { id: 'draft', type: 'llm', name: 'Draft', config: {} },
    { id: 'judge', type: 'evaluator', config: {} },
    { id: 'other', type: 'llm', config: {} },
  ],
  edges: [{ from: 'in', to: 'draft' }, { from: 'draft', to: 'judge' }, { from: 'in', to: 'other' }],
}

describe('reference completion', () => {
  it('offers only what is upstream of the step, with each step type\'s output fields', () => {
    expect(upstreamOf(doc, 'judge')).toEqual(['in', 'draft'])
    const paths = referencesFor(doc, 'judge').map(r => r.path)
    expect(paths).toContain('input.question')
    expect(paths).toContain('steps.draft.text')
    expect(paths).toContain('steps.in')
    expect(paths.some(p => p.startsWith('steps.other'))).toBe(false)
    expect(paths.some(p => p.startsWith('steps.judge'))).toBe(false)
    expect(paths.at(-1)).toBe('attempt')
  })

  it('opens on an unclosed {{ before the caret only', () => {
    expect(openReference('Say {{steps.dr', 14)).toEqual({ start: 4, partial: 'steps.dr' })
    expect(openReference('Say {{steps.draft.text}} ok', 27)).toBeUndefined()
    expect(openReference('{"a": {"b": 1}}', 10)).toBeUndefined()
    expect(openReference('{{ ', 3)).toEqual({ start: 0, partial: '' })
  })

  it('lists prefix matches before inner matches', () => {
    const found = completions(referencesFor(doc, 'judge'), 'text').map(r => r.path)
    expect(found).toEqual(['steps.draft.text'])
    expect(completions(referencesFor(doc, 'judge'), 'steps.draft.').map(r => r.path)[0]).toBe('steps.draft.text')
  })

  it('replaces the partial with the reference, closes it once, and puts the caret after it', () => {
    expect(applyCompletion('Say {{steps.dr and more', 14, 'steps.draft.text')).toEqual({ text: 'Say {{steps.draft.text}} and more', caret: 24 })
    expect(applyCompletion('Say {{steps.dr}}', 14, 'steps.draft.text')).toEqual({ text: 'Say {{steps.draft.text}}', caret: 24 })
  })
})
