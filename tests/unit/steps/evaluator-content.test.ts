/**
 * What an evaluator step judges by default: an evaluator step without `content` judges the text
 * of its single upstream step; with none or several it cannot tell which, and says so.
 */
import { describe, expect, it } from 'vitest'
import { runWorkflow, stepSpecs, workflowWarnings } from '../../../engine'
import { testDeps } from '../../support/workflows'

const judge = (config: Record<string, unknown> = {}) => ({ id: 'judge', type: 'evaluator', config: { evaluation_type: 'criteria', model: 'local:heuristic', criteria: [{ name: 'relevance' }], pass_threshold: 0, ...config } })
const answer = 'To reset your password, open Settings and choose "Forgot password".'

function workflow(nodes: unknown[], edges: Array<{ from: string, to: string }>) {
  return { name: 'extract content', nodes: [{ id: 'in', type: 'input' }, ...nodes], edges }
}

describe('an evaluator without content', () => {
  it('judges the text of its single upstream LLM step, shown in its input', async () => {
    const { options, events } = testDeps()
    const result = await runWorkflow(workflow(
      [{ id: 'draft', type: 'llm', config: { model: 'openai:gpt-4o-mini', prompt: '{{input.question}}' }, pinned: [answer] }, judge()],
      [{ from: 'in', to: 'draft' }, { from: 'draft', to: 'judge' }],
    ), { ...options, input: { question: 'How do I reset my password?' } })
    expect(result.status).toBe('succeeded')
    const started = events.find(e => e.type === 'step.started' && e.node_id === 'judge')
    expect(started).toMatchObject({ input: { content: answer } })
    expect(result.steps.judge!.output).toMatchObject({ passed: true, criteria_scores: { relevance: expect.any(Number) } })
  })

  it('takes an output step\'s value, and leaves a content that is given alone', async () => {
    const { options, events } = testDeps()
    await runWorkflow(workflow(
      [{ id: 'final', type: 'output', config: { value: answer } }, judge(), { id: 'other', type: 'evaluator', config: { ...judge().config, content: 'given text' } }],
      [{ from: 'in', to: 'final' }, { from: 'final', to: 'judge' }, { from: 'final', to: 'other' }],
    ), options)
    const inputOf = (id: string) => events.flatMap(e => (e.type === 'step.started' && e.node_id === id ? [(e.input as { content: unknown }).content] : []))
    expect(inputOf('judge')).toEqual([answer])
    expect(inputOf('other')).toEqual(['given text'])
  })

  it('with two upstream steps, is refused before the run naming the node and the field, and the editor is warned beforehand', async () => {
    const definition = workflow(
      [{ id: 'a', type: 'llm', config: { model: 'openai:gpt-4o-mini', prompt: 'p' }, pinned: ['one'] }, { id: 'b', type: 'llm', config: { model: 'openai:gpt-4o-mini', prompt: 'p' }, pinned: ['two'] }, judge()],
      [{ from: 'in', to: 'a' }, { from: 'in', to: 'b' }, { from: 'a', to: 'judge' }, { from: 'b', to: 'judge' }],
    )
    expect(workflowWarnings(definition, stepSpecs())).toEqual([{
      node: 'judge', path: 'nodes.judge.config.content',
      message: 'node "judge": content: no content is set and 2 steps lead into this one (a, b): set content to the text to judge, e.g. {{steps.a.text}}',
    }])
    const { options, events } = testDeps()
    await expect(runWorkflow(definition, options)).rejects.toMatchObject({
      code: 'INVALID_WORKFLOW', details: [{ node: 'judge', path: 'nodes.judge.config.content', message: expect.stringContaining('is not set: set it to the text to judge') }],
    })
    expect(events).toEqual([])
  })

  it('warns with no upstream step, and not for a comparison, which judges its candidates', () => {
    expect(workflowWarnings(workflow([judge()], []), stepSpecs()).map(w => w.message)).toEqual(['node "judge": content: no content is set and no step leads into this one: set content to the text to judge, e.g. {{steps.draft.text}}'])
    expect(workflowWarnings(workflow([judge({ evaluation_type: 'comparison', compare_inputs: ['x', 'y'] })], []), stepSpecs())).toEqual([])
    expect(workflowWarnings(workflow([{ id: 'draft', type: 'llm', config: { model: 'openai:gpt-4o-mini', prompt: 'p' } }, judge()], [{ from: 'draft', to: 'judge' }]), stepSpecs())).toEqual([])
  })
})
