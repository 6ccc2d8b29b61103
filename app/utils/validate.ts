import { validateWorkflow, type Problem } from '~~/engine/graph/validate'
import { stepSpecs } from '~~/engine/steps/specs'

const specs = stepSpecs()

/** Every problem of the document, found in the browser with the schemas the server uses. */
export function problemsOf(doc: unknown): Problem[] {
  return validateWorkflow(doc, specs).problems
}

export type { Problem }
