import { validateWorkflow, type Problem } from '../../engine/graph/validate'
import { runProblems, workflowWarnings, type Warning } from '../../engine/graph/graph-defaults'
import { stepSpecs } from '../../engine/steps/specs'

const specs = stepSpecs()

/**
 * What the document's check finds, in the browser with the schemas the server uses: its problems
 * (what the server refuses to run, and what a step's run would refuse, for steps with no other
 * problem) and its warnings (what it leaves unclear without being invalid: an evaluator that cannot
 * tell which step to judge, a condition comparing a number with a string).
 */
export function checkDocument(doc: unknown): { problems: Problem[], warnings: Warning[] } {
  const { problems: found, workflow } = validateWorkflow(doc, specs)
  const problems = found.filter(p => p.severity !== 'warning')
  const warnings: Warning[] = [
    ...workflowWarnings(doc, specs),
    ...found.flatMap(p => (p.severity === 'warning' && p.node ? [{ node: p.node, path: p.path ?? `nodes.${p.node}`, message: p.message }] : [])),
  ]
  if (!workflow) return { problems, warnings }
  const flagged = new Set(problems.map(p => p.node))
  return { problems: [...problems, ...runProblems(workflow, specs).filter(p => !flagged.has(p.node))], warnings }
}

export type { Problem, Warning }
