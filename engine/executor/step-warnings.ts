import type { RunResult } from './types'

/** A warning a run's steps gave (an evaluator result's `warnings`), once, with the steps that gave it in the run's order. */
export interface StepWarning {
  message: string
  nodes: string[]
}

/**
 * What a run's steps said its reader should know about how their results were reached — e.g. the
 * offline judge standing in for a judge with no key — each warning once. Any step output's
 * `warnings` (a list of sentences) counts; the last attempt of a step is what its summary holds.
 */
export function stepWarnings(result: Pick<RunResult, 'steps'>): StepWarning[] {
  const found = new Map<string, string[]>()
  for (const [node, step] of Object.entries(result.steps)) {
    const warnings = (step.output as { warnings?: unknown } | null | undefined)?.warnings
    if (!Array.isArray(warnings)) continue
    for (const message of warnings) {
      if (typeof message !== 'string' || !message) continue
      const nodes = found.get(message) ?? []
      if (!nodes.includes(node)) nodes.push(node)
      found.set(message, nodes)
    }
  }
  return [...found].map(([message, nodes]) => ({ message, nodes }))
}

/** A warning as one line for a person reading a log: which steps gave it, then what it says. */
export function stepWarningLine(warning: StepWarning): string {
  const steps = warning.nodes.map(node => `"${node}"`).join(', ')
  return `Warning (${warning.nodes.length > 1 ? 'steps' : 'step'} ${steps}): ${warning.message}`
}
