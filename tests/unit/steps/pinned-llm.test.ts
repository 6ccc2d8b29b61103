import { describe, expect, it } from 'vitest'
import { createProviders, defaultRegistry, runWorkflow, validateWorkflow } from '../../../engine'
import { requiredFields } from '../../../app/utils/step-fields'
import { stepSpecs } from '../../../engine/steps/specs'

/** What the editor validates with (app/utils/validate.ts): the browser-safe specs. */
const problemsOf = (doc: unknown) => validateWorkflow(doc, stepSpecs()).problems

/** No provider key at all: a pinned step must run offline. */
const providers = createProviders({ env: {} })

const workflow = (llm: Record<string, unknown>) => ({
  name: 'offline',
  nodes: [
    { id: 'in', type: 'input' },
    { id: 'draft', type: 'llm', config: { prompt: 'Answer {{input.q}}' }, ...llm },
    { id: 'out', type: 'output', config: { value: '{{steps.draft.text}}', verdict: 'pass' } },
  ],
  edges: [{ from: 'in', to: 'draft' }, { from: 'draft', to: 'out' }],
})

describe('an LLM step with pinned outputs', () => {
  it('needs no model: validation, the editor\'s problems and the run accept it', async () => {
    const pinned = workflow({ pinned: ['a pinned answer'] })
    expect(validateWorkflow(pinned, defaultRegistry).problems).toEqual([])
    expect(problemsOf(pinned)).toEqual([])
    const result = await runWorkflow(pinned, { registry: defaultRegistry, providers, input: { q: 'x' } })
    expect(result.status).toBe('succeeded')
    expect(result.output).toBe('a pinned answer')
  })

  it('a step that is not pinned still needs its model', () => {
    const problems = validateWorkflow(workflow({}), defaultRegistry).problems
    expect(problems).toMatchObject([{ node: 'draft', path: 'nodes.draft.config.model' }])
    expect(problemsOf(workflow({}))).toMatchObject([{ node: 'draft', path: 'nodes.draft.config.model' }])
  })

  it('the editor\'s form marks the model required only on a step that is not pinned', () => {
    expect([...requiredFields({ type: 'llm' }, ['model', 'prompt'])]).toEqual(['model', 'prompt'])
    expect([...requiredFields({ type: 'llm', pinned: ['x'] }, ['model', 'prompt'])]).toEqual(['prompt'])
  })
})
