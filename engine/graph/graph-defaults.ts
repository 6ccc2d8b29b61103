import { workflowSchema, type Workflow } from '../schema/workflow'
import type { Problem } from './problem'
import type { StepSpecs, UpstreamStep } from '../steps/types'
import type { Graph } from './topology'
import { buildGraph } from './topology'

/** The distinct nodes with an edge into `id`, in edge order, with their specs. */
export function upstreamSteps(graph: Graph, id: string, specs: StepSpecs): UpstreamStep[] {
  const ids = [...new Set(graph.incoming.get(id)?.map(edge => edge.from) ?? [])]
  return ids.map(from => ({ id: from, spec: specs.get(graph.nodes.get(from)!.type) }))
}

/** A node's config with what its step type takes from the graph filled in under it (see StepSpec.fromGraph). */
export function configWithGraphDefaults(graph: Graph, id: string, specs: StepSpecs): Record<string, unknown> {
  const node = graph.nodes.get(id)!
  const defaults = specs.get(node.type)?.fromGraph?.(node.config, upstreamSteps(graph, id, specs)).config
  return defaults ? { ...defaults, ...node.config } : node.config
}

export interface Warning {
  node: string
  /** Where inside the workflow, e.g. `nodes.judge.config.content`. */
  path: string
  message: string
}

/** What a valid workflow leaves unclear, such as which upstream step an evaluator judges; runs are not refused for it. */
export function workflowWarnings(raw: unknown, specs: StepSpecs): Warning[] {
  const parsed = workflowSchema.safeParse(raw)
  if (!parsed.success) return []
  const graph = buildGraph(parsed.data)
  const warnings: Warning[] = []
  for (const node of graph.nodes.values()) {
    const warning = specs.get(node.type)?.fromGraph?.(node.config, upstreamSteps(graph, node.id, specs)).warning
    if (warning) warnings.push({ node: node.id, path: `nodes.${node.id}.config.${warning.field}`, message: `node "${node.id}": ${warning.field}: ${warning.message}` })
  }
  return warnings
}

/**
 * What each step's run would refuse (StepSpec.runProblems), found before a run, for the steps that
 * run (a pinned step's output stands in for it): the editor flags them as the run would fail them.
 */
export function runProblems(workflow: Workflow, specs: StepSpecs): Problem[] {
  const graph = buildGraph(workflow)
  const problems: Problem[] = []
  for (const node of graph.nodes.values()) {
    const check = specs.get(node.type)?.runProblems
    if (!check || node.pinned?.length) continue
    for (const problem of check(configWithGraphDefaults(graph, node.id, specs))) {
      const path = `nodes.${node.id}.config.${problem.path}`
      problems.push({ code: 'invalid_config', node: node.id, path, message: `node "${node.id}": ${path}: ${problem.message}` })
    }
  }
  return problems
}
