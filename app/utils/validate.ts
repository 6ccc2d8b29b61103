import { validateWorkflow, type Problem } from '~~/engine/graph/validate'
import { runProblems, workflowWarnings, type Warning } from '~~/engine/graph/graph-defaults'
import { stepSpecs } from '~~/engine/steps/specs'

const specs = stepSpecs()

/**
 * Every problem of the document, found in the browser with the schemas the server uses: what it
 * refuses to run, and what a step's run would refuse (for steps with no other problem).
 */
export function problemsOf(doc: unknown): Problem[] {
  const { problems, workflow } = validateWorkflow(doc, specs)
  if (!workflow) return problems
  const flagged = new Set(problems.map(p => p.node))
  return [...problems, ...runProblems(workflow, specs).filter(p => !flagged.has(p.node))]
}

/** What the document leaves unclear without being invalid (an evaluator that cannot tell which step to judge). */
export function warningsOf(doc: unknown): Warning[] {
  return workflowWarnings(doc, specs)
}

export type { Problem, Warning }
