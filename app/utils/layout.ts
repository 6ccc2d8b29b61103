import dagre from '@dagrejs/dagre'
import type { DocEdge, DocNode } from '~/stores/workflow'

/** Left-to-right layered layout of the steps (dagre), for the Auto-layout button. */
export function autoLayout(nodes: readonly DocNode[], edges: readonly DocEdge[]): Record<string, { x: number, y: number }> {
  const graph = new dagre.graphlib.Graph()
  graph.setGraph({ rankdir: 'LR', nodesep: 40, ranksep: 70 })
  graph.setDefaultEdgeLabel(() => ({}))
  for (const node of nodes) graph.setNode(node.id, { width: 170, height: 70 })
  for (const edge of edges) graph.setEdge(edge.from, edge.to)
  dagre.layout(graph)
  return Object.fromEntries(nodes.map((node) => {
    const { x, y } = graph.node(node.id)
    return [node.id, { x: Math.round(x - 85), y: Math.round(y - 35) }]
  }))
}
