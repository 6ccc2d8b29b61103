import dagre from '@dagrejs/dagre'
import type { DocEdge, DocNode } from '~/stores/workflow'

/** The branches taken when a check fails. */
const FAILING = new Set(['false', 'exhausted'])
/** The size a step not yet measured is laid out at. */
const DEFAULT_SIZE = { width: 180, height: 96 }

/**
 * Left-to-right layered layout of the steps (dagre), for the Auto-layout button: each step at its
 * own size (`sizes`, as drawn), so no two steps overlap however tall they are.
 */
export function autoLayout(
  nodes: readonly DocNode[], edges: readonly DocEdge[], sizes: Readonly<Record<string, { width: number, height: number }>> = {},
): Record<string, { x: number, y: number }> {
  const graph = new dagre.graphlib.Graph()
  // Ranks 44 apart, as the templates are: six steps in a row still show whole at 1280×720 at a readable zoom.
  graph.setGraph({ rankdir: 'LR', nodesep: 40, ranksep: 44 })
  graph.setDefaultEdgeLabel(() => ({}))
  for (const node of nodes) graph.setNode(node.id, { ...(sizes[node.id] ?? DEFAULT_SIZE) })
  for (const edge of edges) graph.setEdge(edge.from, edge.to)
  dagre.layout(graph)
  const centre = (id: string) => graph.node(id).y
  // dagre may put a failing branch above the passing one; the mirror image is as good a layout, with them the usual way up.
  const flip = failingAbove(edges, centre) ? -1 : 1
  return Object.fromEntries(nodes.map((node) => {
    const { x, y, width, height } = graph.node(node.id)
    return [node.id, { x: Math.round(x - width / 2), y: Math.round(flip * y - height / 2) }]
  }))
}

/** Whether more of the steps on a failing branch lie above their passing sibling than below it. */
function failingAbove(edges: readonly DocEdge[], centre: (id: string) => number): boolean {
  let score = 0
  for (const failing of edges.filter(e => e.when && FAILING.has(e.when))) {
    for (const passing of edges.filter(e => e.from === failing.from && !(e.when && FAILING.has(e.when)))) {
      score += Math.sign(centre(failing.to) - centre(passing.to))
    }
  }
  return score < 0
}
