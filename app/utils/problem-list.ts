import type { Problem } from '../../engine/graph/validate'

/** One line of the editor's problem list: the step it selects and the field of that step's form it points to. */
export interface ProblemEntry {
  key: string
  /** The step to select, when the problem is on one. */
  node?: string
  /** The field of the step's form (`config.expected`, `config.criteria[0].weight`), when the problem is on one. */
  field?: string
  text: string
}

/** The document's problems as the editor lists them, each said in words by `say`. */
export function problemEntries(problems: readonly Problem[], say: (problem: Problem) => string): ProblemEntry[] {
  return problems.map((problem, i) => {
    const prefix = problem.node ? `nodes.${problem.node}.` : undefined
    const field = prefix && problem.path?.startsWith(prefix) ? problem.path.slice(prefix.length) : undefined
    return { key: `${i}:${problem.path ?? ''}`, ...(problem.node ? { node: problem.node } : {}), ...(field ? { field } : {}), text: say(problem) }
  })
}
