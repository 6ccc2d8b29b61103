/** Browser-side graph checks on the document, mirroring the engine's rules for instant feedback. */
interface GraphEdge { from: string, to: string, when?: string }

/** Whether adding from → to would close a loop of edges (loops are made with a retry's target). */
export function wouldCycle(edges: readonly GraphEdge[], from: string, to: string): boolean {
  if (from === to) return true
  const next = new Map<string, string[]>()
  for (const e of edges) next.set(e.from, [...(next.get(e.from) ?? []), e.to])
  const stack = [to]
  const seen = new Set<string>()
  while (stack.length) {
    const id = stack.pop()!
    if (id === from) return true
    if (seen.has(id)) continue
    seen.add(id)
    stack.push(...(next.get(id) ?? []))
  }
  return false
}

/** A fresh slug id for a node of a type: `llm`, `llm_2`, … */
export function freshId(type: string, taken: ReadonlySet<string>): string {
  const base = type.replace(/[^a-zA-Z0-9_-]/g, '') || 'node'
  if (!taken.has(base)) return base
  for (let n = 2; ; n++) if (!taken.has(`${base}_${n}`)) return `${base}_${n}`
}

/** A copy's id, named after its original: `judge` → `judge_2`, and a copy of `judge_2` → `judge_3`. */
export function copyId(original: string, taken: ReadonlySet<string>): string {
  return freshId(original.replace(/_\d+$/, ''), taken)
}

/**
 * Why an edge cannot be added, or null when it can: a loop of edges, a duplicate, or both branches
 * of one step into the same step (it would run on either branch: connect it after the branching
 * step instead).
 */
export function connectionProblem(edges: readonly GraphEdge[], from: string, to: string, when?: string): string | null {
  if (from === to) return `${from} cannot feed itself; loop back with a retry node's target instead`
  if (wouldCycle(edges, from, to)) return `${from} → ${to} would make a cycle; loop back with a retry node's target instead`
  const between = edges.filter(e => e.from === from && e.to === to)
  if (between.some(e => (e.when ?? '') === (when ?? ''))) return 'these nodes are already connected'
  const other = between.find(e => e.when !== undefined && when !== undefined && e.when !== when)
  if (other) return `${to} already gets the "${other.when}" branch of ${from}; joining it to the "${when}" branch too would run it on every path — connect it to a step after ${from} instead`
  if (between.length && (when === undefined) !== (between[0]!.when === undefined)) return `${to} is already connected to ${from}${between[0]!.when ? ` on its "${between[0]!.when}" branch` : ''}`
  return null
}
