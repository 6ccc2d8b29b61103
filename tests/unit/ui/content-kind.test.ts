import { describe, expect, it } from 'vitest'
import { contentKind } from '../../../app/utils/content-kind'
import { referencesFor } from '../../../app/utils/references'

const doc = {
  nodes: [
    { id: 'in', type: 'input', config: { fields: { question: { type: 'string' }, edit: { type: 'object' }, loose: {} } } },
    { id: 'draft', type: 'llm', name: 'Draft', config: { model: 'local:heuristic', prompt: '{{input.question}}' } },
    { id: 'judge', type: 'evaluator', config: { evaluation_type: 'scorers' } },
  ],
  edges: [{ from: 'in', to: 'draft' }, { from: 'draft', to: 'judge' }],
}
const references = referencesFor(doc, 'judge')

describe('what an evaluator field gives, as far as the form can tell', () => {
  it('knows text: written text, a step\'s text, a run input declared a string', () => {
    expect(contentKind('The answer is 4.', references)).toEqual({ kind: 'text', why: 'written text' })
    expect(contentKind('{{steps.draft.text}}', references)).toEqual({ kind: 'text', why: 'Draft (llm): string' })
    expect(contentKind(' {{ input.question }} ', references)).toEqual({ kind: 'text', why: 'run input: string' })
  })

  it('knows JSON: written as JSON, a step\'s whole output, an input declared an object', () => {
    expect(contentKind({ operations: [] }, references).kind).toBe('json')
    expect(contentKind('{"operations": []}', references)).toEqual({ kind: 'json', why: 'written as JSON' })
    expect(contentKind('{{steps.draft}}', references)).toEqual({ kind: 'json', why: 'Draft (llm): the whole output' })
    expect(contentKind('{{input.edit}}', references).kind).toBe('json')
  })

  it('does not guess: empty, several references, text around one, an undeclared type or path', () => {
    for (const value of [undefined, '', '{{steps.draft.text}} and {{input.question}}', 'Answer: {{steps.draft.text}}', '{{input.loose}}', '{{steps.nowhere.text}}', '{{steps.draft.latency_ms}}']) {
      expect(contentKind(value, references).kind, String(value)).toBe('unknown')
    }
  })
})
