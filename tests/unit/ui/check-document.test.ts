import { describe, expect, it } from 'vitest'
import { checkDocument } from '../../../app/utils/validate'

const doc = (right: unknown, left = '{{steps.judge.overall_score}}') => ({
  name: 'gate',
  nodes: [
    { id: 'in', type: 'input', config: {} },
    { id: 'judge', type: 'evaluator', config: { evaluation_type: 'scoring', model: 'local:heuristic', content: '{{input.answer}}' } },
    { id: 'check', type: 'condition', config: { left, op: 'eq', right } },
  ],
  edges: [{ from: 'in', to: 'judge' }, { from: 'judge', to: 'check' }],
})

describe('the editor\'s check of a document', () => {
  it('lists a misspelt reference among the problems, on its step and field', () => {
    const { problems } = checkDocument(doc(true, '{{steps.judge.pased}}'))
    expect(problems).toMatchObject([{ node: 'check', path: 'nodes.check.config.left' }])
    expect(problems[0]!.message).toContain('did you mean `passed`?')
  })

  it('shows a number compared with a string as a warning of the step, not a problem', () => {
    const { problems, warnings } = checkDocument(doc('high'))
    expect(problems).toEqual([])
    expect(warnings).toMatchObject([{ node: 'check', path: 'nodes.check.config.right' }])
    expect(warnings[0]!.message).toContain('compares a number')
  })
})
