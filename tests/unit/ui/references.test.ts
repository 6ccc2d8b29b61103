import { describe, expect, it } from 'vitest'
import { stepSpecs } from '../../../engine/steps/specs'
import { LOOP_TARGET_FIELDS, applyCompletion, completions, dataFromConnection, exampleValue, insertReference, openReference, referencesFor, resolvedField, upstreamOf } from '../../../app/utils/references'

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

describe('data that follows the connections', () => {
  const reads = (type: unknown) => (type === 'scorers' ? ['actual', 'expected', 'original'] : ['content', 'context', 'reference'])
  const judge = { id: 'judge', type: 'evaluator', config: { evaluation_type: 'criteria' } }
  const draft = { id: 'draft', type: 'llm', config: {} }
  const bare = { nodes: [doc.nodes[0]!, draft, judge], edges: [{ from: 'in', to: 'draft' }] }

  it('an LLM step connected to an evaluator becomes what it judges, with the input\'s question as context', () => {
    expect(dataFromConnection(bare, draft, judge, reads)).toEqual({ content: '{{steps.draft.text}}', context: '{{input.question}}' })
    const noQuestion = { ...bare, nodes: [{ id: 'in', type: 'input', config: { fields: { topic: {} } } }, draft, judge] }
    expect(dataFromConnection(noQuestion, draft, judge, reads)).toEqual({ content: '{{steps.draft.text}}' })
  })

  it('leaves what is set, a type that reads no content, a second step leading in, and other step types alone', () => {
    expect(dataFromConnection(bare, draft, { ...judge, config: { content: '{{input.text}}' } }, reads)).toEqual({ context: '{{input.question}}' })
    expect(dataFromConnection(bare, draft, { ...judge, config: { evaluation_type: 'scorers' } }, reads)).toBeUndefined()
    expect(dataFromConnection({ ...bare, edges: [...bare.edges, { from: 'in', to: 'judge' }] }, draft, judge, reads)).toBeUndefined()
    expect(dataFromConnection(bare, doc.nodes[0]!, judge, reads)).toBeUndefined()
  })

  it('shows a reference\'s value in the last run, in one short line', () => {
    const run = { input: { question: 'What is 2+2?' }, steps: { draft: { output: { text: 'Four.\nIt is four.', usage: { input_tokens: 3 } } } } }
    expect(exampleValue(run, 'input.question')).toBe('What is 2+2?')
    expect(exampleValue(run, 'steps.draft.text')).toBe('Four. It is four.')
    expect(exampleValue(run, 'steps.draft.usage')).toBe('{"input_tokens":3}')
    expect(exampleValue(run, 'steps.judge.passed')).toBeUndefined()
    expect(exampleValue(null, 'input.question')).toBeUndefined()
    expect(exampleValue({ input: { question: 'x'.repeat(100) } }, 'input.question', 10)).toBe('xxxxxxxxx…')
  })

  it('inserts a variable in place of the selection', () => {
    expect(insertReference('Answer: ', 8, 8, 'input.question')).toEqual({ text: 'Answer: {{input.question}}', caret: 26 })
    expect(insertReference('Answer: X!', 8, 9, 'steps.draft.text')).toEqual({ text: 'Answer: {{steps.draft.text}}!', caret: 28 })
  })
})

describe('what a reference field resolved to in the last run', () => {
  const run = { input: { question: 'Why?' }, steps: { judge: { output: { passed: true } }, check: { input: { left: true, right: true } } } }

  it('is the value the step received, with the references that found nothing', () => {
    expect(resolvedField(run, 'check', 'left', '{{steps.judge.passed}}')).toEqual({ value: 'true', missing: [] })
    expect(resolvedField(run, 'check', 'left', '{{steps.judge.pased}}')).toEqual({ value: 'true', missing: ['steps.judge.pased'] })
    // Plain text, or a step that did not run: nothing to show.
    expect(resolvedField(run, 'check', 'left', 'true')).toBeUndefined()
    expect(resolvedField(run, 'ok', 'value', '{{steps.judge.passed}}')).toBeUndefined()
    expect(resolvedField(null, 'check', 'left', '{{steps.judge.passed}}')).toBeUndefined()
  })
})

describe('completion from what steps declare they output', () => {
  it('offers a step\'s declared fields, its criteria by name, a pinned step\'s pinned fields', () => {
    const gate = {
      nodes: [
        { id: 'in', type: 'input', config: {} },
        { id: 'draft', type: 'llm', config: {}, pinned: [{ text: 'a', operations: [] }] },
        { id: 'judge', type: 'evaluator', config: { evaluation_type: 'rubric', criteria: [{ name: 'relevance' }] } },
        { id: 'check', type: 'condition', config: {} },
      ],
      edges: [{ from: 'in', to: 'draft' }, { from: 'draft', to: 'judge' }, { from: 'judge', to: 'check' }],
    }
    const paths = referencesFor(gate, 'check').map(r => r.path)
    expect(paths).toEqual(expect.arrayContaining(['steps.judge.passed', 'steps.judge.grade', 'steps.judge.criteria_scores.relevance', 'steps.draft.text', 'steps.draft.operations']))
    expect(paths).not.toContain('steps.judge.winner')
    expect(paths).not.toContain('steps.draft.usage')
  })

  it('offers a step the outputs that come back to it through a retry loop, as the engine reads them', () => {
    const loop = {
      nodes: [
        { id: 'in', type: 'input', config: { fields: { question: {} } } },
        { id: 'draft', type: 'llm', config: {} },
        { id: 'judge', type: 'evaluator', config: { evaluation_type: 'criteria', criteria: [{ name: 'relevance' }], include_feedback: true } },
        { id: 'check', type: 'condition', config: {} },
        { id: 'again', type: 'retry', config: { target: 'draft', max_attempts: 3 } },
        { id: 'ko', type: 'output', config: {} },
      ],
      edges: [{ from: 'in', to: 'draft' }, { from: 'draft', to: 'judge' }, { from: 'judge', to: 'check' },
        { from: 'check', to: 'again', when: 'false' }, { from: 'again', to: 'ko', when: 'exhausted' }],
    }
    const options = referencesFor(loop, 'draft')
    expect(options.find(o => o.path === 'steps.judge.feedback')?.detail).toBe('evaluator, from the previous attempt: string')
    expect(options.map(o => o.path)).toEqual(expect.arrayContaining(['steps.draft.text', 'steps.check', 'steps.again']))
    // A step between the target and the retry reads what comes after it from the previous attempt.
    const between = referencesFor(loop, 'judge').filter(o => o.detail.includes('previous attempt')).map(o => o.path)
    expect(between.filter(path => path.split('.').length === 2)).toEqual(['steps.judge', 'steps.check', 'steps.again'])
    // After the retry, nothing comes back: the exhausted output reads its upstream as usual.
    expect(referencesFor(loop, 'ko').filter(o => o.detail.includes('previous attempt'))).toEqual([])
    // Without the loop the draft reads only what runs before it.
    const plain = { ...loop, nodes: loop.nodes.filter(n => n.id !== 'again') }
    expect(referencesFor(plain, 'draft').map(o => o.path)).not.toContain('steps.judge.feedback')
  })

  it('knows every step type that loops, by the field its spec names', () => {
    const specs = stepSpecs()
    const looping = Object.fromEntries(specs.types().flatMap(type => (specs.get(type)?.loopTargetField ? [[type, specs.get(type)!.loopTargetField]] : [])))
    expect(LOOP_TARGET_FIELDS).toEqual(looping)
  })
})
