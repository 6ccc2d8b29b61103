import { validateWorkflow, type Problem } from '../../engine/graph/validate'
import { workflowWarnings, type Warning } from '../../engine/graph/graph-defaults'
import { stepSpecs } from '../../engine/steps/specs'

const specs = stepSpecs()

/**

 * What the document's check finds, in the browser with the schemas the server uses: its problems
 * (what the server refuses to run, including what a step's run would refuse) and its warnings (what
 * it leaves unclear without being invalid: an evaluator that cannot tell which step to judge, a
 * condition comparing a number with a string).
 */
export function checkDocument(doc: unknown): { problems: Problem[], warnings: Warning[] } {
  const { problems: found } = validateWorkflow(doc, specs)
  const problems = found.filter(p => p.severity !== 'warning')
  const warnings: Warning[] = [
    ...workflowWarnings(doc, specs),
    ...found.flatMap(p => (p.severity === 'warning' && p.node ? [{ node: p.node, path: p.path ?? `nodes.${p.node}`, message: p.message }] : [])),
  ]
  return { problems, warnings }
}

export type { Problem, Warning }
