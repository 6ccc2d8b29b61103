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
