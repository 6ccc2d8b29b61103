import { afterEach, describe, expect, it } from 'vitest'
import { parseStored } from '../../../core'
import { createSqliteStore, openDatabase, type DbHandle } from '../../../db'
import { ValidatedWorkflows } from '../../../core/runs/validated-workflows'
import { builtinSteps, JudgeflowError, StepRegistry } from '../../../engine'
import { experimentSchema } from '../../../engine/experiments'

let handle: DbHandle | undefined
afterEach(() => handle?.close())

function caught(fn: () => unknown): JudgeflowError {
  try {
    fn()
  }
  catch (error) {
    if (error instanceof JudgeflowError) return error
    throw error
  }
  throw new Error('expected a JudgeflowError')
}

describe('a stored record that no longer parses', () => {
  it('is a STORED_RECORD_INVALID error naming the record and each problem, not a raw ZodError', async () => {
    handle = openDatabase(':memory:')
    // Written by hand (or by an older version): no documents, no target.
    const { experiments } = createSqliteStore(handle)
    const row = await experiments.create({ name: 'old', current_best: 'a', variants: [{ id: 'a' }] })
    const stored = (await experiments.get(row.id))!
    const error = caught(() => parseStored(experimentSchema, { ...stored.definition, current_best: stored.currentBest }, `experiment "${row.id}"`))
    expect(error).toMatchObject({ code: 'STORED_RECORD_INVALID', category: 'system' })
    expect(error.message).toMatch(new RegExp(`^The stored experiment "${row.id}" cannot be read: documents: .*; target: `))
    expect(error.message).toMatch(/Correct it in the database, or delete it\.$/)
    expect((error.details as { problems: Array<{ path: string }> }).problems.map(p => p.path)).toEqual(expect.arrayContaining(['documents', 'target']))
  })

  it('a stored workflow version that fails the workflow schema names the workflow and version; a draft with graph problems stays INVALID_WORKFLOW', () => {
    const validated = new ValidatedWorkflows(new StepRegistry(builtinSteps))
    const unreadable = caught(() => validated.get({ name: 'w', nodes: 'not a list' }, 'wf-1', 3))
    expect(unreadable.code).toBe('STORED_RECORD_INVALID')
    expect(unreadable.message).toMatch(/^The stored version 3 of workflow "wf-1" cannot be read: nodes: /)
    const draft = { name: 'w', nodes: [{ id: 'a', type: 'input' }], edges: [{ from: 'a', to: 'ghost' }] }
    expect(caught(() => validated.get(draft, 'wf-1', 4)).code).toBe('INVALID_WORKFLOW')
    // Not stored (a variant's definition): validated as before.
    expect(caught(() => validated.get({ name: 'w', nodes: 'not a list' })).code).toBe('INVALID_WORKFLOW')
  })

  it('a stored workflow version with a key now refused is the workflow\'s problem (400), naming the key, not an unreadable record', () => {
    const validated = new ValidatedWorkflows(new StepRegistry(builtinSteps))
    const stored = { name: 'w', nodes: [{ id: 'a', type: 'input', positon: { x: 0, y: 0 } }, { id: 'b', type: 'output', config: { verdikt: 'fail' } }], edges: [{ from: 'a', to: 'b' }] }
    const error = caught(() => validated.get(stored, 'wf-1', 5))
    expect(error.code).toBe('INVALID_WORKFLOW')
    expect(error.message).toContain('nodes[0]: unknown key "positon": did you mean "position"?')
    const verdikt = caught(() => validated.get({ ...stored, nodes: [{ id: 'a', type: 'input' }, stored.nodes[1]] }, 'wf-1', 6))
    expect(verdikt.code).toBe('INVALID_WORKFLOW')
    expect(verdikt.message).toContain('nodes.b.config: unknown key "verdikt": did you mean "verdict"?')
  })
})

describe('validated workflows of no stored version', () => {
  const gate = (prompt: string) => ({
    name: 'w',
    nodes: [{ id: 'in', type: 'input' }, { id: 'draft', type: 'llm', config: { model: 'openai:gpt-4o-mini', prompt } }],
    edges: [{ from: 'in', to: 'draft' }],
  })

  it('are validated once per text: the same definition, read again, is the same workflow; another text is validated anew', () => {
    const validated = new ValidatedWorkflows(new StepRegistry(builtinSteps))
    const first = validated.get(gate('Answer {{input.q}}'))
    expect(validated.get(structuredClone(gate('Answer {{input.q}}')))).toBe(first)
    const other = validated.get(gate('Reply to {{input.q}}'))
    expect(other).not.toBe(first)
    expect(other.nodes.find(n => n.id === 'draft')!.config).toMatchObject({ prompt: 'Reply to {{input.q}}' })
    // A definition that fails is refused every time, never kept.
    const broken = { ...gate('x'), edges: [{ from: 'in', to: 'ghost' }] }
    expect(caught(() => validated.get(broken)).code).toBe('INVALID_WORKFLOW')
    expect(caught(() => validated.get(broken)).code).toBe('INVALID_WORKFLOW')
  })

  it('a long one (outputs carried to compare) is validated each time, not kept', () => {
    const validated = new ValidatedWorkflows(new StepRegistry(builtinSteps))
    const long = gate(`Answer ${'x'.repeat(20_000)}`)
    expect(validated.get(long)).not.toBe(validated.get(long))
  })
})
