import type { WorkflowNode } from '../schema/workflow'
import type { StepDefinition, StepOutcome } from '../steps/types'

/** The pinned output for a node's n-th run: one item per run, the last one repeating. */
export function pinnedOutcome(node: WorkflowNode, definition: StepDefinition, runs: number): StepOutcome {
  const items = node.pinned ?? []
  const item = items[Math.min(runs, items.length) - 1]
  const output = typeof item === 'string' ? { text: item } : item
  return { output, branch: definition.branchOf?.(output) }
}
