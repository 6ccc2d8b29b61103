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
