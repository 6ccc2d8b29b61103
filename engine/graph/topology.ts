import type { Workflow, WorkflowEdge, WorkflowNode } from '../schema/workflow'

export interface Graph {
  nodes: Map<string, WorkflowNode>
  /** Declaration order of each node, used to keep scheduling stable. */
  order: Map<string, number>
  outgoing: Map<string, WorkflowEdge[]>
  incoming: Map<string, WorkflowEdge[]>
}

const graphs = new WeakMap<object, Graph>()

/**
 * Indexes a workflow's nodes and edges; edges to unknown nodes are left out (validation reports them).
 * Validation and execution of the same parsed workflow share one index.
 */
export function buildGraph(workflow: Pick<Workflow, 'nodes' | 'edges'>): Graph {
  let graph = graphs.get(workflow)
  if (!graph) graphs.set(workflow, graph = indexGraph(workflow))
  return graph
}

function indexGraph(workflow: Pick<Workflow, 'nodes' | 'edges'>): Graph {
  const nodes = new Map<string, WorkflowNode>()
  const order = new Map<string, number>()
  const outgoing = new Map<string, WorkflowEdge[]>()
  const incoming = new Map<string, WorkflowEdge[]>()
  workflow.nodes.forEach((node, i) => {
    if (nodes.has(node.id)) return
    nodes.set(node.id, node)
    order.set(node.id, i)
    outgoing.set(node.id, [])
    incoming.set(node.id, [])
  })
  for (const edge of workflow.edges) {
    if (!nodes.has(edge.from) || !nodes.has(edge.to)) continue
    outgoing.get(edge.from)!.push(edge)
    incoming.get(edge.to)!.push(edge)
  }
  return { nodes, order, outgoing, incoming }
}

/** Kahn's algorithm; nodes left over sit on or behind a cycle. */
export function topologicalOrder(graph: Graph): { order: string[], cyclic: string[] } {
  const indegree = new Map<string, number>()
  for (const [id, edges] of graph.incoming) indegree.set(id, edges.length)
  const queue = [...graph.nodes.keys()].filter(id => indegree.get(id) === 0)
  const order: string[] = []
  for (let i = 0; i < queue.length; i++) {
    const id = queue[i]!
    order.push(id)
    for (const edge of graph.outgoing.get(id)!) {
      const left = indegree.get(edge.to)! - 1
      indegree.set(edge.to, left)
      if (left === 0) queue.push(edge.to)
    }
  }
  const placed = new Set(order)
  return { order, cyclic: [...graph.nodes.keys()].filter(id => !placed.has(id)) }
}

/** The nodes on cycles (strongly connected components of more than one node, or self-loops). */
export function cycles(graph: Graph): string[][] {
  let index = 0
  const indexes = new Map<string, number>()
  const low = new Map<string, number>()
  const stack: string[] = []
  const onStack = new Set<string>()
  const found: string[][] = []
  const connect = (id: string) => {
    indexes.set(id, index)
    low.set(id, index)
    index++
    stack.push(id)
    onStack.add(id)
    for (const { to } of graph.outgoing.get(id)!) {
      if (!indexes.has(to)) {
        connect(to)
        low.set(id, Math.min(low.get(id)!, low.get(to)!))
      }
      else if (onStack.has(to)) low.set(id, Math.min(low.get(id)!, indexes.get(to)!))
    }
    if (low.get(id) === indexes.get(id)) {
      const component: string[] = []
      let member: string
      do {
        member = stack.pop()!
        onStack.delete(member)
        component.push(member)
      } while (member !== id)
      const selfLoop = graph.outgoing.get(id)!.some(e => e.to === id)
      if (component.length > 1 || selfLoop) found.push(component.reverse())
    }
  }
  for (const id of graph.nodes.keys()) if (!indexes.has(id)) connect(id)
  return found
}

/** `from` and every node reachable from it. */
export function downstreamOf(graph: Graph, from: string): Set<string> {
  const seen = new Set<string>([from])
  const queue = [from]
  while (queue.length) {
    const id = queue.pop()!
    for (const { to } of graph.outgoing.get(id) ?? []) {
      if (!seen.has(to)) {
        seen.add(to)
        queue.push(to)
      }
    }
  }
  return seen
}
