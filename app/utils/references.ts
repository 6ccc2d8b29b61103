/** Pure helpers of reference completion (no Vue), tested on their own. */
import { builtinStepOutputs } from '../../engine/steps/output-declarations'
import { pinnedOutputs, typesOf, type OutputField } from '../../engine/steps/outputs'

/**
 * The config field naming the step a loop runs again, per step type: the specs' `loopTargetField`,
 * repeated here because the specs carry zod, which the editor's store does not load (a unit test
 * holds the two equal).
 */
export const LOOP_TARGET_FIELDS: Readonly<Record<string, string>> = { retry: 'target' }

interface WorkflowDoc {
  nodes: ReadonlyArray<{ id: string, type: string, name?: string, config: Record<string, unknown>, pinned?: readonly unknown[] }>
  edges: ReadonlyArray<{ from: string, to: string }>
}

export interface ReferenceOption {
  /** What goes between the braces, e.g. `steps.draft.text`. */
  path: string
  detail: string
  /** What the reference gives, when known: `string`, `object`, `number or null`… (a step's whole output is an `object`). */
  type?: string
}

/**
 * The fields a step outputs, for completion, from its type's declaration (its pinned items when
 * pinned): each field, and the fields of an object one level down (`criteria_scores.relevance`).
 */
function outputPaths(node: WorkflowDoc['nodes'][number]): Array<{ path: string, type: string }> {
  const declared: OutputField | undefined = node.pinned?.length ? pinnedOutputs(node.pinned) : builtinStepOutputs[node.type]?.(node.config)
  const out: Array<{ path: string, type: string }> = []
  for (const [name, field] of Object.entries(declared?.open ? {} : declared?.fields ?? {})) {
    out.push({ path: name, type: typesOf(field).join(' or ') })
    if (field.fields && !field.open) for (const [inner, child] of Object.entries(field.fields)) out.push({ path: `${name}.${inner}`, type: typesOf(child).join(' or ') })
  }
  return out
}

/** Each node's neighbours one way along the edges: those it leads to (`down`) or comes from (`up`). */
function adjacency(doc: WorkflowDoc, direction: 'up' | 'down'): Map<string, string[]> {
  const next = new Map<string, string[]>()
  for (const edge of doc.edges) {
    const [key, value] = direction === 'up' ? [edge.to, edge.from] : [edge.from, edge.to]
    const list = next.get(key)
    if (list) list.push(value)
    else next.set(key, [value])
  }
  return next
}

/** The nodes reached from `start` along `next` (`start` not included unless on a cycle). */
function reached(next: Map<string, string[]>, start: string): Set<string> {
  const seen = new Set<string>()
  const stack = [start]
  while (stack.length) {
    for (const id of next.get(stack.pop()!) ?? []) {
      if (!seen.has(id)) {
        seen.add(id)
        stack.push(id)
      }
    }
  }
  return seen
}

/** Nodes with a path of edges to `nodeId`: the only steps whose outputs it can read. */
export function upstreamOf(doc: WorkflowDoc, nodeId: string): string[] {
  const seen = reached(adjacency(doc, 'up'), nodeId)
  return doc.nodes.filter(n => seen.has(n.id)).map(n => n.id)
}

/**
 * Steps whose output comes back to `nodeId` through a retry loop: the retry and what leads to it,
 * when `nodeId` is its target or after it. A later attempt reads their last values (the judge's
 * feedback in the draft's prompt); the first reads nothing. As the engine's reference check says.
 */
export function loopedInto(doc: WorkflowDoc, nodeId: string): string[] {
  const up = adjacency(doc, 'up')
  const before = reached(up, nodeId)
  const looped = new Set<string>()
  for (const retry of doc.nodes) {
    const field = LOOP_TARGET_FIELDS[retry.type]
    const target = field ? retry.config[field] : undefined
    // A target leads to `nodeId` exactly when it is among the steps before it: one walk for every retry.
    if (typeof target !== 'string' || (target !== nodeId && !before.has(target))) continue
    for (const id of [retry.id, ...reached(up, retry.id)]) if (!before.has(id)) looped.add(id)
  }
  return doc.nodes.filter(n => looped.has(n.id)).map(n => n.id)
}

/** Every reference a field of `nodeId` can use: the run input's fields, upstream outputs, the attempt. */
export function referencesFor(doc: WorkflowDoc, nodeId: string): ReferenceOption[] {
  const inputNode = doc.nodes.find(n => n.type === 'input')
  const inputFields = Object.entries((inputNode?.config.fields as Record<string, { type?: unknown } | undefined> | undefined) ?? {})
  const options: ReferenceOption[] = inputFields.map(([f, field]) => ({ path: `input.${f}`, detail: 'run input', ...(typeof field?.type === 'string' ? { type: field.type } : {}) }))
  const byId = new Map(doc.nodes.map(n => [n.id, n]))
  const add = (id: string, note: string) => {
    const node = byId.get(id)!
    const label = `${node.name ? `${node.name} (${node.type})` : node.type}${note}`
    options.push({ path: `steps.${id}`, detail: `${label}: the whole output`, type: 'object' })
    if (node.type === 'input') return
    for (const field of outputPaths(node)) options.push({ path: `steps.${id}.${field.path}`, detail: `${label}: ${field.type}`, type: field.type })
  }
  for (const id of upstreamOf(doc, nodeId)) add(id, '')
  for (const id of loopedInto(doc, nodeId)) add(id, id === nodeId ? ', previous attempt' : ', from the previous attempt')
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

interface DocNode { id: string, type: string, config: Record<string, unknown> }
/** The step fields each evaluation type reads (engine/evaluation-types/<type>/spec.ts `inputs`), for filling them. */
type InputsOf = (evaluationType: unknown) => readonly string[]

/**
 * What connecting `from` to `to` fills in `to`'s config: an evaluator after an LLM step judges that
 * step's text (`content`), with the run input's `question` as its `context` when the input declares
 * one. Fields already set are left alone, and so is an evaluator that another step leads into
 * already; undefined when nothing is filled.
 */
export function dataFromConnection(doc: WorkflowDoc, from: DocNode, to: DocNode, inputsOf: InputsOf): Record<string, unknown> | undefined {
  // Only the first step leading in: with two, which one to judge is the person's choice.
  if (from.type !== 'llm' || to.type !== 'evaluator' || doc.edges.some(e => e.to === to.id)) return undefined
  const reads = inputsOf(to.config.evaluation_type)
  const filled: Record<string, unknown> = {}
  if (reads.includes('content') && to.config.content === undefined) filled.content = `{{steps.${from.id}.text}}`
  const input = doc.nodes.find(n => n.type === 'input')
  const declared = (input?.config.fields as Record<string, unknown> | undefined) ?? {}
  if (reads.includes('context') && to.config.context === undefined && Object.hasOwn(declared, 'question')) filled.context = '{{input.question}}'
  return Object.keys(filled).length ? filled : undefined
}

/** What a run read back holds for the examples: its input and each step's output. */
interface RunValues { input?: unknown, steps?: Record<string, { output?: unknown }> }

const lookup = (value: unknown, keys: readonly string[]): unknown =>
  keys.reduce<unknown>((at, key) => (at !== null && typeof at === 'object' ? (at as Record<string, unknown>)[key] : undefined), value)

/** A reference's value in a past run, in one short line; undefined when the run has none. */
export function exampleValue(run: RunValues | null | undefined, path: string, max = 60): string | undefined {
  if (!run) return undefined
  const [root, ...rest] = path.split('.')
  const value = root === 'input' ? lookup(run.input, rest) : root === 'steps' && rest[0] ? lookup(run.steps?.[rest[0]]?.output, rest.slice(1)) : undefined
  if (value === undefined) return undefined
  const line = (typeof value === 'string' ? value : JSON.stringify(value)).replace(/\s+/g, ' ').trim()
  return line.length > max ? `${line.slice(0, max - 1)}…` : line
}

/** The text with `{{path}}` put in place of the selection [start, end), and where the caret goes. */
export function insertReference(text: string, start: number, end: number, path: string): { text: string, caret: number } {
  const inserted = `{{${path}}}`
  return { text: text.slice(0, start) + inserted + text.slice(end), caret: start + inserted.length }
}

/** The paths of the references in a field's text (`steps.judge.passed`), in order. */
export function referencePaths(text: string): string[] {
  return [...text.matchAll(/\{\{\s*([^{}]*?)\s*\}\}/g)].map(match => match[1]!)
}

/** One short line for a value a field resolved to. */
export function valueLine(value: unknown, max = 120): string {
  const line = (typeof value === 'string' ? value : JSON.stringify(value) ?? '').replace(/\s+/g, ' ').trim()
  return line.length > max ? `${line.slice(0, max - 1)}…` : line
}

type RunWithInputs = RunValues & { steps?: Record<string, { input?: unknown, output?: unknown }> }
interface ResolvedField { value: string, missing: string[] }

/**
 * What a step's field resolved to in a run: its value as the step received it (its references
 * rendered), and the references in it that found nothing there. Undefined when the field holds no
 * reference or the step did not run.
 */
export function resolvedField(run: RunWithInputs | null | undefined, nodeId: string, key: string, text: string): ResolvedField | undefined {
  const paths = referencePaths(text)
  const input = run?.steps?.[nodeId]?.input
  if (!paths.length || !input || typeof input !== 'object' || !Object.hasOwn(input, key)) return undefined
  const missing = paths.filter(p => (p.startsWith('input.') || p.startsWith('steps.')) && exampleValue(run, p) === undefined)
  return { value: valueLine((input as Record<string, unknown>)[key]), missing }
}
