import { createPinia, setActivePinia } from 'pinia'
import { nextTick, watch } from 'vue'
import { beforeEach, describe, expect, it } from 'vitest'
import { useWorkflowStore, type WorkflowDoc } from '../../../app/stores/workflow'

const doc: WorkflowDoc = {
  name: 'gate',
  nodes: [{ id: 'in', type: 'input', config: {} }, { id: 'llm', type: 'llm', config: { prompt: 'hi' }, position: { x: 0, y: 0 } }],
  edges: [{ from: 'in', to: 'llm' }],
}

describe('the editor store: revisions and unsaved changes', () => {
  beforeEach(() => setActivePinia(createPinia()))

  it('counts a revision for every change, undo and redo, and a watcher of it sees each', async () => {
    const store = useWorkflowStore()
    store.load('w1', 1, doc)
    const seen: number[] = []
    watch(() => store.revision, revision => seen.push(revision), { flush: 'sync' })
    store.moveNode('llm', { x: 10.4, y: 20.6 })
    store.updateNode('llm', { config: { prompt: 'hello' } })
    store.rename('gate 2')
    store.undo()
    store.redo()
    await nextTick()
    expect(seen).toHaveLength(5)
    expect(store.doc.nodes[1]).toMatchObject({ position: { x: 10, y: 21 }, config: { prompt: 'hello' } })
    expect(store.doc.name).toBe('gate 2')
  })

  it('is dirty after a change and clean again when undone to the saved document or saved', () => {
    const store = useWorkflowStore()
    store.load('w1', 1, doc)
    expect(store.dirty).toBe(false)
    store.moveNode('llm', { x: 5, y: 5 })
    expect(store.dirty).toBe(true)
    store.undo()
    expect(store.dirty).toBe(false)
    store.redo()
    expect(store.dirty).toBe(true)
    store.markSaved(2)
    expect(store.dirty).toBe(false)
    expect(store.version).toBe(2)
  })

  it('moves several steps in one undo step, merges the moves of a group made in a row, and ignores a move to where a step is', () => {
    const store = useWorkflowStore()
    store.load('w1', 1, { ...doc, nodes: doc.nodes.map(n => ({ ...n, position: { x: 0, y: 0 } })) })
    store.moveNodes([{ id: 'in', position: { x: 0.2, y: -0.3 } }, { id: 'llm', position: { x: 0, y: 0 } }])
    expect(store.past).toHaveLength(0)
    store.moveNodes([{ id: 'in', position: { x: 10, y: 0 } }, { id: 'llm', position: { x: 10, y: 5 } }])
    expect(store.past).toHaveLength(1)
    for (const y of [10, 20, 30]) store.moveNodes([{ id: 'llm', position: { x: 10, y } }], 'nudge:llm')
    // Another group is another step.
    store.moveNodes([{ id: 'in', position: { x: 10, y: 10 } }], 'nudge:in')
    expect(store.past).toHaveLength(3)
    expect(store.doc.nodes.map(n => n.position)).toEqual([{ x: 10, y: 10 }, { x: 10, y: 30 }])
    store.undo()
    store.undo()
    expect(store.doc.nodes.map(n => n.position)).toEqual([{ x: 10, y: 0 }, { x: 10, y: 5 }])
    store.undo()
    expect(store.doc.nodes.map(n => n.position)).toEqual([{ x: 0, y: 0 }, { x: 0, y: 0 }])
    expect(store.dirty).toBe(false)
  })

  it('keeps its own copy: the loaded object and undo history are not shared with the caller', () => {
    const store = useWorkflowStore()
    const input = structuredClone(doc)
    store.load('w1', 1, input)
    store.moveNode('llm', { x: 99, y: 99 })
    expect(input.nodes[1]!.position).toEqual({ x: 0, y: 0 })
    store.undo()
    expect(store.doc.nodes[1]!.position).toEqual({ x: 0, y: 0 })
  })
})

describe('the editor store: connections that carry data, new steps, evaluation type switches', () => {
  beforeEach(() => setActivePinia(createPinia()))
  const gate: WorkflowDoc = {
    name: 'gate',
    nodes: [
      { id: 'in', type: 'input', config: { fields: { question: { type: 'string' } } } },
      { id: 'draft', type: 'llm', config: { prompt: 'hi' } },
      { id: 'judge', type: 'evaluator', config: { evaluation_type: 'scoring' } },
      { id: 'again', type: 'retry', config: { max_attempts: 2 } },
    ],
    edges: [{ from: 'in', to: 'draft' }, { from: 'judge', to: 'again' }],
  }

  it('pastes copies named after their originals, moved by the shift the canvas gives', () => {
    const store = useWorkflowStore()
    store.load('w1', 1, { ...gate, nodes: gate.nodes.map((n, i) => ({ ...n, position: { x: i * 200, y: 100 } })) })
    const copied = store.copy(['draft', 'judge'])
    store.paste(copied, { x: 0, y: 180 })
    expect(store.nodeById('draft_2')).toMatchObject({ type: 'llm', position: { x: 200, y: 280 } })
    expect(store.nodeById('judge_2')).toMatchObject({ type: 'evaluator', position: { x: 400, y: 280 } })
    expect(store.selected).toEqual(['draft_2', 'judge_2'])
    store.paste(store.copy(['judge_2']))
    expect(store.nodeById('judge_3')).toMatchObject({ position: { x: 440, y: 320 } })
  })

  it('names a pasted copy after its original\'s label, numbered on; a step without a label stays without', () => {
    const store = useWorkflowStore()
    store.load('w1', 1, { ...gate, nodes: gate.nodes.map(n => (n.id === 'judge' ? { ...n, name: 'Judge' } : n)) })
    store.paste(store.copy(['judge', 'draft']))
    expect(store.nodeById('judge_2')!.name).toBe('Judge 2')
    expect(store.nodeById('draft_2')!.name).toBeUndefined()
    store.paste(store.copy(['judge']))
    expect(store.nodeById('judge_3')!.name).toBe('Judge 3')
    store.undo()
    expect(store.nodeById('judge_3')).toBeUndefined()
  })

  it('fills an evaluator\'s content and context when an LLM step is connected to it, in the same undo step', () => {
    const store = useWorkflowStore()
    store.load('w1', 1, gate)
    expect(store.connect({ from: 'draft', to: 'judge' })).toBeNull()
    expect(store.nodeById('judge')!.config).toEqual({ evaluation_type: 'scoring', content: '{{steps.draft.text}}', context: '{{input.question}}' })
    store.undo()
    expect(store.nodeById('judge')!.config).toEqual({ evaluation_type: 'scoring' })
    expect(store.doc.edges).toHaveLength(2)
  })

  it('takes a retry dragged to a step before it as the step to re-run, not as an edge', () => {
    const store = useWorkflowStore()
    store.load('w1', 1, gate)
    store.connect({ from: 'draft', to: 'judge' })
    expect(store.connect({ from: 'again', to: 'draft', when: 'exhausted' })).toBeNull()
    expect(store.nodeById('again')!.config).toEqual({ max_attempts: 2, target: 'draft' })
    expect(store.doc.edges.some(e => e.from === 'again')).toBe(false)
    // A step that is not before it is an edge as before; a cycle that is not a retry's is refused.
    expect(store.connect({ from: 'judge', to: 'draft' })).toContain('would make a cycle')
  })

  it('keeps a step added in this session untouched until a field of it is left or every step is shown', () => {
    const store = useWorkflowStore()
    store.load('w1', 1, gate)
    const a = store.addNode('llm', { x: 0, y: 0 })
    const b = store.addNode('condition', { x: 0, y: 0 })
    expect(store.untouched).toEqual([a, b])
    store.touch(a)
    expect(store.untouched).toEqual([b])
    store.touchAll()
    expect(store.untouched).toEqual([])
  })

  it('switches an evaluator\'s type without the settings the new type does not use, in one undo step', () => {
    const store = useWorkflowStore()
    store.load('w1', 1, gate)
    store.updateNode('judge', { config: { evaluation_type: 'criteria', criteria: [{ name: 'a', weight: 1 }], pass_threshold: 0.8 } })
    store.switchEvaluationType('judge', 'metrics')
    expect(store.nodeById('judge')!.config).toEqual({ evaluation_type: 'metrics', pass_threshold: 0.8 })
    store.undo()
    expect(store.nodeById('judge')!.config).toEqual({ evaluation_type: 'criteria', criteria: [{ name: 'a', weight: 1 }], pass_threshold: 0.8 })
  })
})
