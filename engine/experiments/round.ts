/**
 * The pieces of an experiment round that need no database: the variant's workflow, the check of
 * the target node, the verdict of a run that left nothing to judge, and the report with its
 * history. The application layer (core/rounds.ts) runs rounds with them, for the server and the CLI.
 */
import { JudgeflowError } from '../errors'
import type { SerializedError } from '../errors'
import { experimentReport } from './recommend'
import type { Experiment, Judgment, RoundSummary } from './schema'

export interface RoundWorkflow {
  name?: string
  nodes: Array<{ id: string, config?: Record<string, unknown> }>
  [key: string]: unknown
}

/** Throws INVALID_INPUT naming the nodes when the workflow has no node `node` (target.node). */
export function checkTargetNode(workflow: RoundWorkflow, node: string): void {
  if (workflow.nodes.some(n => n.id === node)) return
  const which = workflow.name ? `workflow "${workflow.name}"` : 'the workflow'
  throw new JudgeflowError('INVALID_INPUT', `target.node: ${which} has no node "${node}" (nodes: ${workflow.nodes.map(n => n.id).join(', ')})`)
}

/** The workflow with the variant's config laid over the target node's. */
export function variantWorkflow(workflow: RoundWorkflow, node: string, config: Record<string, unknown> | undefined): RoundWorkflow {
  return { ...workflow, nodes: workflow.nodes.map(n => (n.id === node ? { ...n, config: { ...n.config, ...config } } : n)) }
}

/** A run that did not succeed, or left no text at the target node: every problem marked missed, with why. */
export function unjudgedVerdict(document: Experiment['documents'][number], status: string, error?: SerializedError | null): Omit<Judgment, 'variant' | 'document' | 'run'> {
  const reason = `the run ${status}${error?.message ? ` (${error.message})` : ''}: no output to judge`
  return { problems: Object.fromEntries(document.problems.map(p => [p.id, { mark: '×' as const, reason }])), bonuses: [], penalties: [] }
}

/** The round's report: statistics, comparisons and the recommendation, with the earlier rounds as history. */
export function roundReport(experiment: Experiment, currentBest: string, judgments: Judgment[], history: RoundSummary[] = []) {
  return experimentReport({ experiment: experiment.name, current_best: currentBest, documents: experiment.documents, judgments, history })
}
