/**
 * How many times each step of a workflow runs per case, as far as it can be told before the run
 * (the `prompts` estimate, estimate.ts):
 * - a condition whose sides are the case's input fields (`{{input.x}}`) or constants is decided per
 *   case, as the run will decide it: only the branch taken counts (an imported promptfoo grid runs
 *   one cell per case);
 * - any other condition may take either branch: both count in the high figure, neither branch's own
 *   steps in the low one;
 * - a retry's loop (its target and the steps from it to the retry) runs at most `max_attempts`
 *   times: that many in the high figure, once in the low one; what follows `exhausted` only in the high one.
 * The estimate's figure is the high one, said to be an upper bound whenever the two differ.
 */
import { compare, type ConditionOperator } from '../steps/condition/compare'
import type { DatasetCase } from './schema'

type Node = { id: string, type: string, config?: Record<string, unknown>, pinned?: readonly unknown[] }
type Edge = { from: string, to: string, when?: string }

export interface ShapeGroup {
  /** The cases whose decided conditions all go the same way. */
  cases: number[]
  /** Per node (by index): runs per case at most, and at least. */
  high: number[]
  low: number[]
}

export interface WorkflowShape {
  groups: ShapeGroup[]
  /** What made the high and low figures differ, one sentence each. */
  notes: string[]
}

const LONE_INPUT = /^\s*\{\{\s*input\.([A-Za-z_][\w-]*)\s*\}\}\s*$/

/** A condition side: a constant, an input field, or undefined when it is known only at run time. */
function sideOf(value: unknown): { field?: string, constant?: unknown } | undefined {
  if (typeof value !== 'string') return { constant: value }
  const field = LONE_INPUT.exec(value)?.[1]
  if (field) return { field }
  return value.includes('{{') ? undefined : { constant: value }
}

export function workflowShape(workflow: { nodes: readonly Node[], edges?: readonly Edge[] }, cases: readonly DatasetCase[]): WorkflowShape {
  const nodes = workflow.nodes
  const edges = workflow.edges ?? []
  const index = new Map(nodes.map((n, i) => [n.id, i]))
  const notes: string[] = []
  // Conditions decided from the input: per case, the branch each takes.
  const decided = nodes.flatMap((node, i) => {
    if (node.type !== 'condition' || node.pinned?.length) return []
    const c = node.config ?? {}
    const left = sideOf(c.left)
    const right = sideOf(c.right)
    if (!left || !right) {
      notes.push(`condition "${node.id}" is decided only as the run goes: both of its branches are counted`)
      return []
    }
    return [{ i, left, right, op: c.op as ConditionOperator, ignoreCase: c.ignore_case === true }]
  })
  const branchesOf = (c: DatasetCase): Array<string | undefined> => decided.map(({ left, right, op, ignoreCase }) => {
    const value = (side: { field?: string, constant?: unknown }) => (side.field ? c.input[side.field] : side.constant)
    try {
      return String(compare(value(left), op, value(right), { ignoreCase }))
    }
    catch {
      return undefined
    }
  })
  const byKey = new Map<string, { branches: Array<string | undefined>, cases: number[] }>()
  cases.forEach((c, k) => {
    const branches = branchesOf(c)
    const key = branches.map(b => b ?? '?').join('\u0000')
    const group = byKey.get(key) ?? byKey.set(key, { branches, cases: [] }).get(key)!
    group.cases.push(k)
  })
  const loops = retryLoops(nodes, edges, index)
  for (const loop of loops) notes.push(`retry "${nodes[loop.retry]!.id}" may run its loop up to ${loop.attempts} times: counted at ${loop.attempts} in the high figure, once in the low one`)
  const order = topological(nodes, edges, index)
  const groups = [...byKey.values()].map(({ branches, cases: members }) => {
    const branch = new Map<number, string | undefined>(decided.map((d, k) => [d.i, branches[k]]))
    const { high, low } = reach(nodes, edges, index, order, branch)
    for (const loop of loops) for (const member of loop.members) high[member]! *= loop.attempts
    return { cases: members, high, low }
  })
  if (decided.length && groups.some(g => g.high.some(h => h === 0))) notes.push('conditions on the input are decided case by case: only the branch each case takes is counted')
  return { groups, notes }
}

/** Which nodes run for a group of cases: at most (high, 0/1) and surely (low, 0/1), before loops are counted. */
function reach(nodes: readonly Node[], edges: readonly Edge[], index: Map<string, number>, order: number[], branch: Map<number, string | undefined>) {
  const high = nodes.map(() => 0)
  const low = nodes.map(() => 0)
  const incoming = nodes.map(() => [] as Edge[])
  for (const e of edges) if (index.has(e.from) && index.has(e.to)) incoming[index.get(e.to)!]!.push(e)
  for (const i of order) {
    if (!incoming[i]!.length) {
      high[i] = 1
      low[i] = 1
      continue
    }
    for (const e of incoming[i]!) {
      const from = index.get(e.from)!
      const type = nodes[from]!.type
      const taken = branch.has(from) ? branch.get(from) : undefined
      const known = branch.has(from) && taken !== undefined
      if (high[from] && (!e.when || !known || taken === e.when)) high[i] = 1
      // A retry's `exhausted` is not sure to be taken; an undecided condition's branches neither.
      const sure = !e.when || (known && taken === e.when)
      if (low[from] && sure && !(type === 'retry' && e.when)) low[i] = 1
    }
  }
  return { high, low }
}

function topological(nodes: readonly Node[], edges: readonly Edge[], index: Map<string, number>): number[] {
  const indegree = nodes.map(() => 0)
  const out = nodes.map(() => [] as number[])
  for (const e of edges) {
    const from = index.get(e.from)
    const to = index.get(e.to)
    if (from === undefined || to === undefined) continue
    out[from]!.push(to)
    indegree[to]!++
  }
  const queue = nodes.flatMap((_, i) => (indegree[i] ? [] : [i]))
  const order: number[] = []
  while (queue.length) {
    const i = queue.shift()!
    order.push(i)
    for (const to of out[i]!) if (--indegree[to]! === 0) queue.push(to)
  }
  return order
}

/** Each retry's loop: the nodes from its target to it (both included), and its most attempts. */
function retryLoops(nodes: readonly Node[], edges: readonly Edge[], index: Map<string, number>) {
  const out = nodes.map(() => [] as number[])
  const back = nodes.map(() => [] as number[])
  for (const e of edges) {
    const from = index.get(e.from)
    const to = index.get(e.to)
    if (from === undefined || to === undefined || e.when === 'exhausted') continue
    out[from]!.push(to)
    back[to]!.push(from)
  }
  const walk = (start: number, next: number[][]) => {
    const seen = new Set([start])
    const stack = [start]
    while (stack.length) {
      for (const n of next[stack.pop()!]!) {
        if (seen.has(n)) continue
        seen.add(n)
        stack.push(n)
      }
    }
    return seen
  }
  return nodes.flatMap((node, retry) => {
    const target = index.get(String(node.config?.target))
    const attempts = node.config?.max_attempts
    if (node.type !== 'retry' || target === undefined || typeof attempts !== 'number' || attempts < 2) return []
    const after = walk(target, out)
    const before = walk(retry, back)
    return [{ retry, attempts, members: [...after].filter(n => before.has(n)) }]
  })
}
