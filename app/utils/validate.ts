import { validateWorkflow, type Problem } from '~~/engine/graph/validate'
import { workflowWarnings, type Warning } from '~~/engine/graph/graph-defaults'
import { stepSpecs } from '~~/engine/steps/specs'

const specs = stepSpecs()

/**
 * Every problem of the document, found in the browser by the server's own check: what it refuses
 * to run, including what a step's run would refuse.
 */
export function problemsOf(doc: unknown): Problem[] {
  return validateWorkflow(doc, specs).problems
}

/** What the document leaves unclear without being invalid (an evaluator that cannot tell which step to judge). */
export function warningsOf(doc: unknown): Warning[] {
  return workflowWarnings(doc, specs)
}

export type { Problem, Warning }
