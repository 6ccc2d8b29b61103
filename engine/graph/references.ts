/**
 * References checked against what steps declare they output (StepSpec.outputs): a field a step does
 * not have, a step that does not run before the reference is read, an input field the input step does
 * not declare, and a condition comparing a number with a string (a warning).
 */
import type { Workflow, WorkflowNode } from '../schema/workflow'
import type { StepSpecs } from '../steps/types'
import { findReferences, type PathSegment, type Reference } from '../executor/references'
import { pinnedOutputs, typesOf, type OutputField, type ValueType } from '../steps/outputs'
import { closestKey } from '../schema/unknown-keys'
import { downstreamOf, type Graph } from './topology'
import type { Problem } from './problem'

/** Operators that compare a number with a number, or a value with an equal one. */
const COMPARING = new Set(['eq', 'neq', 'gt', 'gte', 'lt', 'lte'])

interface Scope {
  graph: Graph
  specs: StepSpecs
  /** What each node outputs (its pinned items when pinned), undefined when its type declares nothing. */
  outputOf(id: string): OutputField | undefined
  /** Whether a value of `from` is there when `to` reads it. */
  runsBefore(from: string, to: string): boolean
  /** Whether `to` reads `from` only from an earlier attempt of a retry loop (nothing on the first). */
  carried(from: string, to: string): boolean
  /** The run input's declared fields, when every input step declares its fields. */
  input: OutputField | undefined
}

export function referenceProblems(workflow: Workflow, graph: Graph, specs: StepSpecs): Problem[] {
  const scope = scopeOf(workflow, graph, specs)
  const problems: Problem[] = []
  for (const node of graph.nodes.values()) {
    for (const found of findReferences(node.config, `nodes.${node.id}.config`)) {
      if (!found.reference) continue
      const problem = found.reference.root === 'env'
        ? envProblem(found.field, found.expression, node, scope)
        : checkReference(found.reference, found.expression, node, scope) ?? carriedWhole(found.reference, found.expression, node, scope, found.whole)
      if (problem) problems.push({ code: 'invalid_reference', node: node.id, path: found.field, message: `node "${node.id}": ${found.field}: ${problem}` })
    }
    if (node.type === 'condition') {
      const warning = mixedComparison(node, scope)
      if (warning) problems.push({ code: 'mixed_comparison', severity: 'warning', node: node.id, path: `nodes.${node.id}.config.right`, message: `node "${node.id}": nodes.${node.id}.config.right: ${warning}` })
    }
  }
  return problems
}

function scopeOf(workflow: Workflow, graph: Graph, specs: StepSpecs): Scope {
  const outputs = new Map<string, OutputField | undefined>()
  const downstream = new Map<string, Set<string>>()
  const reach = (id: string) => downstream.get(id) ?? downstream.set(id, downstreamOf(graph, id)).get(id)!
  // A retry re-runs its target and what follows: inside that loop a step reads the last attempt's value of a later one.
  const loops = [...graph.nodes.values()].flatMap((node) => {
    const field = specs.get(node.type)?.loopTargetField
    const target = field && node.config[field]
    return typeof target === 'string' && graph.nodes.has(target) ? [{ retry: node.id, target }] : []
  })
  const inputs = workflow.nodes.filter(n => n.type === 'input')
  const declared = inputs.map(n => specs.get('input')?.outputs?.(n.config))
  const input = inputs.length && declared.every(d => d?.fields && !d.open)
    ? { type: 'object' as const, description: 'the run input', fields: Object.assign({}, ...declared.map(d => d!.fields)) }
    : undefined
  return {
    graph,
    specs,
    input,
    outputOf(id) {
      if (!outputs.has(id)) {
        const node = graph.nodes.get(id)!
        outputs.set(id, node.pinned?.length ? pinnedOutputs(node.pinned) : specs.get(node.type)?.outputs?.(node.config))
      }
      return outputs.get(id)
    },
    runsBefore(from, to) {
      if (from !== to && reach(from).has(to)) return true
      return this.carried(from, to)
    },
    carried(from, to) {
      if (from !== to && reach(from).has(to)) return false
      return loops.some(loop => reach(loop.target).has(to) && reach(from).has(loop.retry))
    },
  }
}

function checkReference(ref: Reference, expression: string, node: WorkflowNode, scope: Scope): string | undefined {
  if (ref.root === 'input') {
    if (!scope.input || !ref.path.length) return undefined
    return unknownField(scope.input, ref.path, expression, 'the input step', (near, known) =>
      `${expression} reads input field "${String(ref.path[0])}", which the input step does not declare${near ? `: did you mean \`${near}\`?` : ''} (its fields: ${known})`)
  }
  if (ref.root !== 'steps' || !scope.graph.nodes.has(ref.nodeId!)) return undefined
  const target = scope.graph.nodes.get(ref.nodeId!)!
  if (!scope.runsBefore(target.id, node.id)) {
    return target.id === node.id
      ? `${expression} refers to this step itself, whose output is not there while it runs`
      : `${expression} refers to step "${target.id}", which does not run before this one (no path of edges leads from "${target.id}" to "${node.id}"): connect them, or refer to a step upstream`
  }
  const output = scope.outputOf(target.id)
  if (!output) return undefined
  return unknownField(output, ref.path, expression, `step "${target.id}"`, (near, known, at) =>
    `${expression}: step "${target.id}" (${describe(target, scope)}) has no field "${at}"${near ? `: did you mean \`${near}\`?` : ''} (its fields${at.includes('.') ? ` there` : ''}: ${known})`)
}

/**
 * `{{env.NAME}}` is read only where a step puts the value in as it sends it (StepSpec.secretFields:
 * an http step's headers), and only beside text: a header that also held `{{input.…}}` could be
 * given a `{{env.…}}` by the input.
 */
function envProblem(field: string, expression: string, node: WorkflowNode, scope: Scope): string | undefined {
  const prefix = `nodes.${node.id}.config.`
  const secret = scope.specs.get(node.type)?.secretFields?.find(name => field.startsWith(`${prefix}${name}.`))
  if (!secret) return `${expression} reads an environment variable, which only an http step's headers may do (the value is put in as the request is sent, never stored)`
  const value = lookupField(node.config, field.slice(prefix.length))
  if (typeof value === 'string' && findReferences(value).some(found => found.reference?.root !== 'env')) {
    return `${expression}: a header that reads an environment variable holds only text and {{env.NAME}}, no other reference`
  }
  return undefined
}

function lookupField(config: Record<string, unknown>, path: string): unknown {
  const dot = path.indexOf('.')
  const value = config[path.slice(0, dot)]
  return value && typeof value === 'object' ? (value as Record<string, unknown>)[path.slice(dot + 1)] : undefined
}

/**
 * A value that is exactly one reference to a later step of a retry loop has nothing on the first
 * attempt: inside text (a retry's feedback in a prompt) that is an empty part, but as the whole
 * value the step would get nothing to work on.
 */
function carriedWhole(ref: Reference, expression: string, node: WorkflowNode, scope: Scope, whole: boolean | undefined): string | undefined {
  if (!whole || ref.root !== 'steps' || !scope.graph.nodes.has(ref.nodeId!) || !scope.carried(ref.nodeId!, node.id)) return undefined
  return `${expression} reads step "${ref.nodeId}", which runs after this one: only a later attempt of the retry loop sees its value, and the first gets nothing. Use it inside text (as a retry's feedback in a prompt), or refer to a step upstream`
}

/** The first segment of `path` the declaration does not have, said by `say`; undefined when the path is there (or cannot be told). */
type Say = (near: string | undefined, known: string, at: string) => string

function unknownField(root: OutputField, path: readonly PathSegment[], expression: string, owner: string, say: Say): string | undefined {
  let field = root
  const walked: string[] = []
  for (const segment of path) {
    const types = typesOf(field)
    if (types.includes('any')) return undefined
    if (types.includes('array') && !types.includes('object')) {
      if (segment === 'length') return undefined
      if (typeof segment !== 'number') return `${expression}: ${[owner, ...walked].join('.')} is a list: pick an item by its index, e.g. [0]`
      if (!field.items) return undefined
      field = field.items
      walked.push(`[${segment}]`)
      continue
    }
    if (!types.includes('object')) return `${expression}: ${walked.length ? `field "${walked.join('.')}" of ${owner}` : owner} is ${types.join(' or ')}, which has no field "${String(segment)}"`
    if (!field.fields || field.open) return undefined
    const next = Object.hasOwn(field.fields, String(segment)) ? field.fields[String(segment)] : undefined
    if (!next) {
      const known = Object.keys(field.fields)
      const near = closestKey(String(segment), known)
      return say(near && [...walked, near].join('.'), known.length ? known.join(', ') : 'none', [...walked, String(segment)].join('.'))
    }
    field = next
    walked.push(String(segment))
  }
  return undefined
}

function describe(node: WorkflowNode, scope: Scope): string {
  if (node.pinned?.length) return `${node.type}, pinned`
  const type = node.type === 'evaluator' && typeof node.config.evaluation_type === 'string' ? `, ${node.config.evaluation_type}` : ''
  return `${scope.specs.get(node.type)?.label ?? node.type}${type}`
}

/** The type a condition's side has before the run: a literal's, a lone reference's declared one. */
function sideType(value: unknown, scope: Scope): ValueType | undefined {
  if (typeof value !== 'string') return value === undefined ? undefined : (typeof value as ValueType)
  const refs = findReferences(value)
  if (!refs.length) return 'string'
  const [only] = refs
  if (refs.length > 1 || only!.expression !== value.trim() || !only!.reference) return refs.length ? 'string' : undefined
  const ref = only!.reference
  let field = ref.root === 'steps' && scope.graph.nodes.has(ref.nodeId!) ? scope.outputOf(ref.nodeId!) : ref.root === 'input' ? scope.input : undefined
  for (const segment of ref.path) {
    field = typeof segment === 'number' ? field?.items : field?.fields?.[segment]
    if (!field) return undefined
  }
  const types = field ? typesOf(field) : []
  return types.length === 1 ? types[0] : undefined
}

/** A number compared with a string that is not a number: `eq` is then never true, `gt` fails the run. */
function mixedComparison(node: WorkflowNode, scope: Scope): string | undefined {
  if (!COMPARING.has(String(node.config.op))) return undefined
  const { left, right } = node.config
  const types = [sideType(left, scope), sideType(right, scope)]
  if (!types.includes('number') || !types.includes('string')) return undefined
  const text = types[0] === 'string' ? left : right
  // A literal numeric string compares by value.
  if (typeof text === 'string' && !text.includes('{{') && text.trim() !== '' && !Number.isNaN(Number(text))) return undefined
  return `compares a number (${JSON.stringify(types[0] === 'number' ? left : right)}) with a string (${JSON.stringify(text)}): ${node.config.op} compares them by value only when the string holds a number; compare like with like (e.g. a score with 0.6)`
}
