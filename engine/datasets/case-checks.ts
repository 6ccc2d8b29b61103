import type { RunResult } from '../executor/types'
import type { Workflow } from '../schema/workflow'

/**
 * What a case's report row shows beside its verdict: the output it was judged on, and each check
 * of the scored evaluator with its verdict and reason (an assertion, a scorer, a criterion), so a
 * failed case says why without opening its run.
 */

/** A case's output in its report row is cut past this many characters (the run holds it whole). */
export const REPORT_OUTPUT_LIMIT = 2000

export interface CaseCheck {
  name: string
  passed: boolean | null
  score: number | null
  reason: string | null
}

const cut = (text: string) => (text.length > REPORT_OUTPUT_LIMIT ? `${text.slice(0, REPORT_OUTPUT_LIMIT)}… (${text.length} characters; the run holds it whole)` : text)

/**
 * The output the case was judged on: as the scored evaluator graded it when a transform changed it
 * (promptfoo's provider and test transforms), else the run's output value, else the text of the last
 * step that produced a text (an LLM, a caller's target, …), else (an evaluator alone) the content it
 * judged; undefined when there is none.
 */
export function outputOf(workflow: Workflow, result: RunResult, evaluation?: { graded_output?: unknown } | null): string | undefined {
  if (typeof evaluation?.graded_output === 'string') return cut(evaluation.graded_output)
  const value = (result as { output?: unknown }).output
  if (value !== undefined && value !== null) return cut(typeof value === 'string' ? value : JSON.stringify(value))
  // The last step that produced a text: an LLM's, or any other producing step's (a caller's target, an http call).
  const texts = workflow.nodes.filter(node => !CONTROL_STEPS.has(node.type) && result.steps[node.id]?.status === 'succeeded')
    .map(node => (result.steps[node.id]!.output as { text?: unknown } | null)?.text)
    .filter(text => typeof text === 'string')
  if (texts.length) return cut(texts.at(-1)!)
  // An evaluator alone judges the case's own content (or its recorded output): that is the text judged.
  const alone = workflow.nodes.every(node => CONTROL_STEPS.has(node.type))
  const input = alone ? result.steps[workflow.nodes.find(node => node.type === 'input')?.id ?? '']?.output as { content?: unknown } | null | undefined : undefined
  return typeof input?.content === 'string' ? cut(input.content) : undefined
}

/** Step types that judge, route or pass on what other steps produce, rather than producing a text. */
const CONTROL_STEPS = new Set(['input', 'evaluator', 'condition', 'retry', 'output'])

/** The scored evaluator's own reason for its verdict (its feedback), cut like the output; undefined when it gave none. */
export function reasonOf(evaluation: { feedback?: unknown } | null | undefined): string | undefined {
  const feedback = evaluation?.feedback
  return typeof feedback === 'string' && feedback.trim() ? cut(feedback) : undefined
}

interface GradeRow { type: string, pass: boolean, score: number, reason: string, metric?: string, components?: GradeRow[] }

/**
 * promptfoo assertions' grades as checks, each followed by its parts (an assert-set's assertions,
 * the componentResults a javascript / python grade returned), named `<parent> › <part>`, as
 * promptfoo lists them flattened after their parent.
 */
function assertionChecks(grades: readonly GradeRow[], parent?: string): CaseCheck[] {
  return grades.flatMap((a) => {
    const own = a.metric ? `${a.type} (${a.metric})` : a.type
    const name = parent ? `${parent} › ${own}` : own
    return [{ name, passed: a.pass, score: a.score, reason: a.reason }, ...(Array.isArray(a.components) ? assertionChecks(a.components, name) : [])]
  })
}

/** The scored evaluator's checks: promptfoo assertions (and the test's named scores), scorers, or criteria against the pass threshold. */
export function checksOf(evaluation: Record<string, unknown> | null | undefined): CaseCheck[] | undefined {
  if (!evaluation) return undefined
  const assertions = evaluation.assertions as GradeRow[] | undefined
  if (Array.isArray(assertions)) {
    const named = Object.entries((evaluation.named_scores ?? {}) as Record<string, unknown>).filter(([, score]) => typeof score === 'number')
    return [...assertionChecks(assertions), ...named.map(([metric, score]) => ({ name: `named score: ${metric}`, passed: null, score: score as number, reason: null }))]
  }
  const scorers = evaluation.scorer_results as Array<{ type: string, passed: boolean, score: number, threshold: number }> | undefined
  if (Array.isArray(scorers)) return scorers.map(s => ({ name: s.type, passed: s.passed, score: s.score, reason: `${s.score} against a threshold of ${s.threshold}` }))
  const scores = evaluation.criteria_scores as Record<string, number> | undefined
  if (!scores || typeof scores !== 'object') return undefined
  const reasons = (evaluation.criteria_reasons ?? {}) as Record<string, string>
  return Object.entries(scores).map(([name, score]) => ({ name, passed: null, score, reason: reasons[name] ?? null }))
}
