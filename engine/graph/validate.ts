import type { z } from 'zod'
import { workflowSchema, type Workflow } from '../schema/workflow'
import { nodeConfigSchema, type StepSpecs } from '../steps/types'
import { findReferences } from '../executor/references'
import { buildGraph, cycles, downstreamOf } from './topology'
import { formatPath } from './path'
import { issuePath } from '../schema/unknown-keys'
import { runProblems } from './graph-defaults'
import { referenceProblems } from './references'
import { modelProblems } from './models'
import type { Problem } from './problem'

export type { Problem, ProblemCode } from './problem'

export type ValidationResult
  = | { ok: true, workflow: Workflow, problems: Problem[] }
    | { ok: false, workflow?: Workflow, problems: Problem[] }

export { formatPath }

export function zodProblems(error: z.ZodError, prefix: string, node?: string): Problem[] {
  return error.issues.map((issue) => {
    const at = [prefix, formatPath(issue.path)].filter(Boolean).join('.')
    // An unknown key's problem selects the key itself; its message names the object it is in.
    const path = [prefix, formatPath(issuePath(issue))].filter(Boolean).join('.')
    return {
      code: node ? 'invalid_config' as const : 'invalid_shape' as const,
      message: `${node ? `node "${node}": ` : ''}${at || 'workflow'}: ${issue.message}`,
      ...(node ? { node } : {}),
      path,
    }
  })
}

/** What validation knows beyond the step types: the provider ids the run calls (the built-in ones unless given). */
export interface ValidateOptions {
  providers?: readonly string[]
}

/** Checks a workflow definition and reports every problem at once, each naming its node. */
export function validateWorkflow(raw: unknown, registry: StepSpecs, options: ValidateOptions = {}): ValidationResult {
  const parsed = workflowSchema.safeParse(raw)
  if (!parsed.success) {
    const problems = zodProblems(parsed.error, '').map((p) => {
      const node = nodeAtPath(raw, p.path)
      return node ? { ...p, node, message: `node "${node}": ${p.message}` } : p
    })
    return { ok: false, problems }
  }
  const workflow = parsed.data
  const problems: Problem[] = []
  const seen = new Set<string>()
  for (const node of workflow.nodes) {
    if (seen.has(node.id)) problems.push({ code: 'duplicate_node', node: node.id, path: `nodes.${node.id}`, message: `node id "${node.id}" is used more than once` })
    seen.add(node.id)
  }
  const graph = buildGraph(workflow)

  for (const node of graph.nodes.values()) {
    const definition = registry.get(node.type)
    if (!definition) {
      problems.push({ code: 'unknown_type', node: node.id, path: `nodes.${node.id}.type`, message: `node "${node.id}": unknown step type "${node.type}" (known: ${registry.types().join(', ')})` })
      continue
    }
    if (node.pinned && definition.pinnable === false) {
      problems.push({ code: 'invalid_config', node: node.id, path: `nodes.${node.id}.pinned`, message: `node "${node.id}": a ${node.type} step cannot have pinned outputs` })
    }
    const config = nodeConfigSchema(definition, node).safeParse(node.config)
    if (!config.success) problems.push(...zodProblems(config.error, `nodes.${node.id}.config`, node.id))
    for (const field of definition.nodeRefFields ?? []) {
      const target = node.config[field]
      if (typeof target === 'string' && !graph.nodes.has(target)) {
        problems.push({ code: 'missing_node', node: node.id, path: `nodes.${node.id}.config.${field}`, message: `node "${node.id}": ${field} "${target}" is not a node of this workflow` })
      }
    }
    for (const ref of findReferences(node.config, `nodes.${node.id}.config`)) {
      if (ref.error) problems.push({ code: 'invalid_reference', node: node.id, path: ref.field, message: `node "${node.id}": ${ref.field}: ${ref.error}` })
      else if (ref.reference?.root === 'steps' && !graph.nodes.has(ref.reference.nodeId!)) {
        problems.push({ code: 'invalid_reference', node: node.id, path: ref.field, message: `node "${node.id}": ${ref.field}: ${ref.expression} refers to node "${ref.reference.nodeId}", which does not exist` })
      }
    }
  }

  const edgeKeys = new Set<string>()
  workflow.edges.forEach((edge, i) => {
    const path = `edges[${i}]`
    for (const end of ['from', 'to'] as const) {
      if (!graph.nodes.has(edge[end])) problems.push({ code: 'missing_node', node: edge[end === 'from' ? 'to' : 'from'], path: `${path}.${end}`, message: `edge ${edge.from} → ${edge.to}: node "${edge[end]}" does not exist` })
    }
    const key = `${edge.from}\u0000${edge.to}\u0000${edge.when ?? ''}`
    if (edgeKeys.has(key)) problems.push({ code: 'duplicate_edge', node: edge.from, path, message: `edge ${edge.from} → ${edge.to}${edge.when ? ` (when ${edge.when})` : ''} appears more than once` })
    edgeKeys.add(key)
    const source = graph.nodes.get(edge.from)
    const branches = source && registry.get(source.type)?.branches
    if (source && edge.when !== undefined && registry.get(source.type)) {
      if (!branches?.includes(edge.when)) {
        problems.push({ code: 'invalid_branch', node: edge.from, path: `${path}.when`, message: `edge ${edge.from} → ${edge.to}: "${edge.when}" is not a branch of ${source.type} node "${edge.from}"${branches?.length ? ` (branches: ${branches.join(', ')})` : ' (it has no branches)'}` })
      }
    }
  })

  for (const component of cycles(graph)) {
    problems.push({ code: 'cycle', node: component[0], path: 'edges', message: `edges form a cycle through ${component.map(id => `"${id}"`).join(' → ')}; loops are made with a retry node's target, not with edges` })
  }

  for (const node of graph.nodes.values()) {
    const field = registry.get(node.type)?.loopTargetField
    if (!field) continue
    const target = node.config[field]
    if (typeof target !== 'string' || !graph.nodes.has(target)) continue
    if (target === node.id || !downstreamOf(graph, target).has(node.id)) {
      problems.push({ code: 'invalid_retry_target', node: node.id, path: `nodes.${node.id}.config.${field}`, message: `node "${node.id}": ${node.type} ${field} "${target}" must be upstream of the retry node (a path of edges must lead from "${target}" to "${node.id}")` })
    }
  }

  problems.push(...referenceProblems(workflow, graph, registry))
  // A provider judgeflow does not call or a misspelt offline judge, on the field naming it (a near-miss model name warned of).
  problems.push(...modelProblems(workflow.nodes.filter(n => registry.get(n.type)), problems, options.providers))
  // What a step's run would refuse (an evaluator's missing inputs), on the steps with no other problem.
  const flagged = new Set(problems.filter(p => p.severity !== 'warning').map(p => p.node))
  problems.push(...runProblems(workflow, registry).filter(p => !flagged.has(p.node)))
  return problems.some(p => p.severity !== 'warning') ? { ok: false, workflow, problems } : { ok: true, workflow, problems }
}

function nodeAtPath(raw: unknown, path: string | undefined): string | undefined {
  const match = path && /^nodes\[(\d+)\]/.exec(path)
  if (!match || !raw || typeof raw !== 'object') return undefined
  const node = (raw as { nodes?: unknown[] }).nodes?.[Number(match[1])] as { id?: unknown } | undefined
  return typeof node?.id === 'string' && node.id ? node.id : undefined
}
