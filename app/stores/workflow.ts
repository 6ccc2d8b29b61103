import { defineStore } from 'pinia'
import { toRaw } from 'vue'
import { connectionProblem, copyId, freshId } from '~/utils/graph'
import { copyName, startingName } from '~/utils/step-card'
import { switchEvaluationType } from '~/utils/evaluation-type-switch'
import { dataFromConnection, upstreamOf } from '~/utils/references'
import { formSpecFor } from '../../engine/evaluation-types/specs'
import type { Workflow, WorkflowEdge, WorkflowNode } from '../../engine/schema/workflow'
import { jsonCopy } from '../../engine/text/own-json'

/** The document edited: a workflow as the API stores and validates it (types only: zod is not loaded here). */
export type WorkflowDoc = Workflow
export type DocNode = WorkflowNode
export type DocEdge = WorkflowEdge

const HISTORY_LIMIT = 100
/** What a new step starts with: enough for its form to show what it is, and valid where a default fits. */
const STARTING_CONFIG: Record<string, Record<string, unknown>> = {
  evaluator: { evaluation_type: 'scoring' },
  // A retry runs its target at most three times in all; a condition passes on a truthy value ({{steps.judge.passed}}).
  retry: { max_attempts: 3 },
  condition: { op: 'truthy' },
}
/** Changes of one group within this time are one undo step. */
const GROUP_MS = 800
const lastChange: { group?: string, at: number } = { at: 0 }
// Raw values: reading a large document through its reactive proxies costs many times more.
const clone = <T>(value: T): T => jsonCopy(toRaw(value))

/**
 * The workflow being edited: the canvas renders from here, every change goes through an action,
 * and each action records an undo step.
 */
export const useWorkflowStore = defineStore('workflow', {
  state: () => ({
    id: '' as string,
    version: 0,
    doc: { name: '', nodes: [], edges: [] } as WorkflowDoc,
    saved: '' as string,
    past: [] as WorkflowDoc[],
    future: [] as WorkflowDoc[],
    selected: [] as string[],
    /**
     * Steps added in this session whose form nobody has left yet: their problems wait until a field
     * of theirs is left or a run is asked for, so a new step is not flagged before it is filled in.
     */
    untouched: [] as string[],
    /** Counts changes of `doc`: watch this, not the document, which would be walked deeply each time. */
    revision: 0,
  }),
  getters: {
    dirty: (state) => {
      // The revision is the dependency; the document itself is read raw, without tracking every field.
      void state.revision
      return JSON.stringify(toRaw(state.doc)) !== state.saved
    },
    canUndo: state => state.past.length > 0,
    canRedo: state => state.future.length > 0,
    nodeById: state => (id: string) => state.doc.nodes.find(n => n.id === id),
  },
  actions: {
    load(id: string, version: number, doc: WorkflowDoc) {
      this.version = version
      const loaded = clone({ ...doc, edges: doc.edges ?? [] })
      this.saved = JSON.stringify(loaded)
      this.doc = loaded
      this.revision++
      this.past = []
      this.future = []
      this.selected = []
      this.id = id
      this.untouched = []
    },
    markSaved(version: number) {
      this.version = version
      this.saved = JSON.stringify(toRaw(this.doc))
    },
    /**
     * Runs a change as one undo step. Changes with the same `group` in quick succession (a slider
     * being dragged) make a single step.
     */
    change(mutate: (doc: WorkflowDoc) => void, group?: string) {
      const now = Date.now()
      const merge = group !== undefined && lastChange.group === group && now - lastChange.at < GROUP_MS && this.past.length > 0
      lastChange.group = group
      lastChange.at = now
      if (!merge) {
        this.past.push(clone(this.doc))
        if (this.past.length > HISTORY_LIMIT) this.past.shift()
      }
      this.future = []
      mutate(this.doc)
      this.revision++
    },
    undo() {
      lastChange.group = undefined
      const previous = this.past.pop()
      if (!previous) return
      this.future.push(clone(this.doc))
      this.doc = previous
      this.revision++
    },
    redo() {
      lastChange.group = undefined
      const next = this.future.pop()
      if (!next) return
      this.past.push(clone(this.doc))
      this.doc = next
      this.revision++
    },
    addNode(type: string, position: { x: number, y: number }, config: Record<string, unknown> = STARTING_CONFIG[type] ?? {}): string {
      const id = freshId(type, new Set(this.doc.nodes.map(n => n.id)))
      const name = startingName(type, this.doc.nodes.map(n => n.name))
      this.change(doc => doc.nodes.push({ id, type, name, config: clone(config), position }))
      this.selected = [id]
      this.untouched = [...this.untouched, id]
      return id
    },
    moveNode(id: string, position: { x: number, y: number }) {
      this.moveNodes([{ id, position }])
    },
    /**
     * Moves steps in one undo step. Moves in the same group within a moment of each other (an arrow
     * key held down) merge into one.
     */
    moveNodes(moves: readonly { id: string, position: { x: number, y: number } }[], group?: string) {
      const changed = moves
        .map(({ id, position }) => ({ id, position: { x: Math.round(position.x), y: Math.round(position.y) } }))
        .filter(({ id, position }) => {
          const node = this.nodeById(id)
          return node && (node.position?.x !== position.x || node.position?.y !== position.y)
        })
      if (!changed.length) return
      this.change((doc) => {
        for (const { id, position } of changed) doc.nodes.find(n => n.id === id)!.position = position
      }, group)
    },
    updateNode(id: string, patch: Partial<DocNode>) {
      this.change((doc) => {
        const node = doc.nodes.find(n => n.id === id)!
        Object.assign(node, clone(patch))
        if (patch.pinned && !patch.pinned.length) delete node.pinned
      }, `update:${id}:${Object.keys(patch).sort().join(',')}`)
    },
    /**
     * Switches an evaluator step's type, removing the settings the new type does not use (the form
     * asks first), in one undo step: undo gives the old type back with them.
     */
    switchEvaluationType(id: string, type: string) {
      const node = this.nodeById(id)
      if (!node) return
      const switched = switchEvaluationType(clone(node.config), type)
      this.change((doc) => { doc.nodes.find(n => n.id === id)!.config = switched })
    },
    removeNodes(ids: readonly string[]) {
      if (!ids.length) return
      const gone = new Set(ids)
      this.change((doc) => {
        doc.nodes = doc.nodes.filter(n => !gone.has(n.id))
        doc.edges = doc.edges.filter(e => !gone.has(e.from) && !gone.has(e.to))
      })
      this.selected = []
    },
    removeEdge(edge: DocEdge) {
      this.change((doc) => { doc.edges = doc.edges.filter(e => !(e.from === edge.from && e.to === edge.to && (e.when ?? '') === (edge.when ?? ''))) })
    },
    /** A step's problems are shown from now on (a field of its form was left). */
    touch(id: string) {
      if (this.untouched.includes(id)) this.untouched = this.untouched.filter(n => n !== id)
    },
    /** Every step's problems are shown from now on (a run or a save was asked for). */
    touchAll() {
      if (this.untouched.length) this.untouched = []
    },
    /**
     * Adds an edge, or says why it cannot be added. A retry dragged to a step before it loops back
     * to that step (its target) rather than adding an edge. An LLM step connected to an evaluator
     * becomes what the evaluator judges (see `dataFromConnection`), unless that was set already.
     */
    connect(edge: DocEdge): string | null {
      const from = this.nodeById(edge.from)
      const to = this.nodeById(edge.to)
      if (!from || !to) return 'both ends must be nodes of this workflow'
      if (from.type === 'retry' && upstreamOf(this.doc, edge.from).includes(edge.to)) {
        this.updateNode(edge.from, { config: { ...from.config, target: edge.to } })
        return null
      }
      const problem = connectionProblem(this.doc.edges, edge.from, edge.to, edge.when)
      if (problem) return problem
      const filled = dataFromConnection(this.doc, from, to, type => formSpecFor(type).inputs)
      this.change((doc) => {
        doc.edges.push(edge.when ? { ...edge } : { from: edge.from, to: edge.to })
        if (filled) Object.assign(doc.nodes.find(n => n.id === to.id)!.config, filled)
      })
      return null
    },
    rename(name: string) {
      this.change((doc) => { doc.name = name })
    },
    /** Nodes (and the edges between them) as clipboard data. */
    copy(ids: readonly string[]): { nodes: DocNode[], edges: DocEdge[] } {
      const set = new Set(ids)
      return clone({ nodes: this.doc.nodes.filter(n => set.has(n.id)), edges: this.doc.edges.filter(e => set.has(e.from) && set.has(e.to)) })
    },
    /**
     * Pastes clipboard nodes with ids and labels named after their originals (`judge_2`, "Judge 2"),
     * moved by `shift` (the canvas finds room for them).
     */
    paste(data: { nodes: DocNode[], edges: DocEdge[] }, shift: { x: number, y: number } = { x: 40, y: 40 }) {
      if (!data.nodes.length) return
      const taken = new Set(this.doc.nodes.map(n => n.id))
      const names = this.doc.nodes.map(n => n.name)
      const ids = new Map<string, string>()
      const renamed = new Map<string, string>()
      for (const node of data.nodes) {
        const id = copyId(node.id, taken)
        taken.add(id)
        ids.set(node.id, id)
        if (!node.name) continue
        const name = copyName(node.name, names)
        names.push(name)
        renamed.set(node.id, name)
      }
      this.change((doc) => {
        for (const node of data.nodes) {
          const position = { x: (node.position?.x ?? 0) + shift.x, y: (node.position?.y ?? 0) + shift.y }
          const name = renamed.get(node.id)
          doc.nodes.push({ ...clone(node), id: ids.get(node.id)!, ...(name ? { name } : {}), position })
        }
        for (const edge of data.edges) doc.edges.push({ ...edge, from: ids.get(edge.from)!, to: ids.get(edge.to)! })
      })
      this.selected = [...ids.values()]
    },
    /** Places nodes left to right by dependency depth. */
    layout(positions: Record<string, { x: number, y: number }>) {
      this.change((doc) => { for (const node of doc.nodes) if (positions[node.id]) node.position = positions[node.id] })
    },
  },
})
