/** Pure helpers of reference completion (no Vue), tested on their own. */
interface WorkflowDoc {
  nodes: ReadonlyArray<{ id: string, type: string, name?: string, config: Record<string, unknown> }>
  edges: ReadonlyArray<{ from: string, to: string }>
}

export interface ReferenceOption {
  /** What goes between the braces, e.g. `steps.draft.text`. */
  path: string
  detail: string
}

/** The output fields each step type produces, for completion. */
const OUTPUT_FIELDS: Record<string, readonly string[]> = {
  input: [],
  llm: ['text', 'usage', 'model', 'latency_ms'],
  evaluator: ['passed', 'overall_score', 'criteria_scores', 'feedback', 'suggestions', 'grade', 'confidence', 'winner', 'best_output', 'ranking'],
  condition: ['result'],
  retry: ['attempt', 'exhausted'],
  output: ['verdict', 'value'],
}

/** Nodes with a path of edges to `nodeId`: the only steps whose outputs it can read. */
export function upstreamOf(doc: WorkflowDoc, nodeId: string): string[] {
  const incoming = new Map<string, string[]>()
  for (const edge of doc.edges) {
    const sources = incoming.get(edge.to)
    if (sources) sources.push(edge.from)
    else incoming.set(edge.to, [edge.from])
  }
  const seen = new Set<string>()
  const stack = [nodeId]
  while (stack.length) {
    for (const from of incoming.get(stack.pop()!) ?? []) {
      if (!seen.has(from)) {
        seen.add(from)
        stack.push(from)
      }
    }
  }
  return doc.nodes.filter(n => seen.has(n.id)).map(n => n.id)
}

/** Every reference a field of `nodeId` can use: the run input's fields, upstream outputs, the attempt. */
export function referencesFor(doc: WorkflowDoc, nodeId: string): ReferenceOption[] {
  const inputNode = doc.nodes.find(n => n.type === 'input')
  const inputFields = Object.keys((inputNode?.config.fields as Record<string, unknown> | undefined) ?? {})
  const options: ReferenceOption[] = inputFields.map(f => ({ path: `input.${f}`, detail: 'run input' }))
  const byId = new Map(doc.nodes.map(n => [n.id, n]))
  for (const id of upstreamOf(doc, nodeId)) {
    const node = byId.get(id)!
    const label = node.name ? `${node.name} (${node.type})` : node.type
    options.push({ path: `steps.${id}`, detail: `${label}: the whole output` })
    for (const field of OUTPUT_FIELDS[node.type] ?? []) options.push({ path: `steps.${id}.${field}`, detail: label })
  }
  options.push({ path: 'attempt', detail: 'this step\'s attempt number' })
  return options
}

/** The unclosed `{{partial` right before the caret, or undefined when the caret is not in one. */
export function openReference(text: string, caret: number): { start: number, partial: string } | undefined {
  const match = /\{\{\s*([\w.[\]-]*)$/.exec(text.slice(0, caret))
  return match ? { start: match.index, partial: match[1]! } : undefined
}

/** Options matching what is typed: by prefix first, then containing it. */
export function completions(options: readonly ReferenceOption[], partial: string, limit = 30): ReferenceOption[] {
  const p = partial.toLowerCase()
  const prefix = options.filter(o => o.path.toLowerCase().startsWith(p))
  const inside = options.filter(o => !o.path.toLowerCase().startsWith(p) && o.path.toLowerCase().includes(p))
  return [...prefix, ...inside].slice(0, limit)
}

/** The text with the open reference replaced by the chosen one, closed, and where the caret goes. */
export function applyCompletion(text: string, caret: number, path: string): { text: string, caret: number } {
  const open = openReference(text, caret)
  if (!open) return { text, caret }
  const after = text.slice(caret)
  const closing = after.startsWith('}}') ? '' : '}}'
  const inserted = `{{${path}${closing}`
  const next = text.slice(0, open.start) + inserted + after
  return { text: next, caret: open.start + inserted.length + (closing ? 0 : 2) }
}
