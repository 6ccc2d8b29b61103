import { describe, expect, it } from 'vitest'
import { validateWorkflow } from '../../../engine/graph/validate'
import { stepSpecs } from '../../../engine/steps/specs'
import { problemEntries } from '../../../app/utils/problem-list'

describe('the editor\'s problem list', () => {
  it('lists the problems the editor\'s validation finds (the server\'s check), each with the step it selects and the field it points to', () => {
    const doc = {
      name: 'w',
      nodes: [
        { id: 'in', type: 'input' },
        { id: 'a', type: 'llm', config: { model: 'openai:gpt-4o-mini', prompt: 'p' }, pinned: ['one'] },
        { id: 'judge', type: 'evaluator', config: { evaluation_type: 'comparison', model: 'local:heuristic' } },
        { id: 'score', type: 'evaluator', config: { evaluation_type: 'scorers', preset: 'standard', actual: '{{steps.a}}' } },
      ],
      edges: [{ from: 'in', to: 'a' }, { from: 'a', to: 'judge' }, { from: 'a', to: 'score' }, { from: 'x', to: 'a' }],
    }
    const entries = problemEntries(validateWorkflow(doc, stepSpecs()).problems, p => p.message)
    expect(entries.map(({ node, field }) => ({ node, field }))).toEqual([
      { node: 'a', field: undefined },
      { node: 'judge', field: 'config.compare_inputs' },
      { node: 'score', field: 'config.expected' },
    ])
    expect(entries[1]!.text).toContain('needs at least 2 candidates, not 1')
  })
})
