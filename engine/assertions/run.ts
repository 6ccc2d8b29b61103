import { mapLimit } from '../evaluator/judge'
import { ASSERT_SET, ASSERTION_HANDLERS, baseTypeOf } from './registry'
import type { Assertion, AssertionGrade, AssertionServices, AssertionTarget } from './types'

/**
 * A test's assertions graded and added up as promptfoo adds them: the score is the weighted mean
 * of the assertions' scores; the test passes when every assertion passed, or, with a test
 * `threshold`, when the score reaches it. A weight of 0 counts for nothing and never fails the
 * test. An `assert-set` is one assertion whose grade is its own assertions', added up the same way
 * with its own threshold.
 */

export interface TestGrade {
  pass: boolean
  score: number
  reason: string
  /** The mean score of each `metric`, weighted. */
  named_scores: Record<string, number>
  /** The weight behind each named score (what an assert-set's named scores count for in its test). */
  named_score_weights?: Record<string, number>
  assertions: AssertionGrade[]
  /** The assertions that compare the test's outputs with each other (select-best), left for the comparison over its cells. */
  awaiting: Assertion[]
}

/** Assertions graded at once, as promptfoo does. */
export const ASSERTIONS_AT_ONCE = 3

const asText = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value))

type GradeWithWeights = AssertionGrade & { named_score_weights?: Record<string, number> }

async function gradeOne(assertion: Assertion, target: AssertionTarget, services: AssertionServices): Promise<GradeWithWeights> {
  const weight = assertion.weight ?? 1
  const named = { type: assertion.type, weight, ...(assertion.metric ? { metric: assertion.metric } : {}) }
  if (assertion.type === ASSERT_SET) {
    const set = await runAssertions(assertion.assert ?? [], target, services, assertion.threshold)
    const metrics = Object.keys(set.named_scores).length ? { named_scores: set.named_scores, named_score_weights: set.named_score_weights } : {}
    return { ...named, pass: set.pass, score: set.score, reason: set.reason, components: set.assertions, ...metrics }
  }
  const { baseType, inverse } = baseTypeOf(assertion.type)
  const handler = ASSERTION_HANDLERS.get(baseType)
  if (!handler) throw new Error(`"${assertion.type}" is not an assertion type judgeflow runs`)
  let output = target.output
  if (assertion.transform !== undefined) {
    if (!services.runScript) throw new Error(`${assertion.type}'s transform needs a code sandbox, which this evaluation has not got`)
    output = await services.runScript('javascript', assertion.transform, { output, context: { vars: target.vars, prompt: { label: target.prompt } } }, 'transform')
    if (output === undefined || output === null) throw new Error(`${assertion.type}'s transform did not return a value`)
  }
  const grade = await handler.handle({ assertion, baseType, inverse, text: asText(output), target: { ...target, output }, services })
  return { ...named, ...grade, ...(weight === 0 ? { pass: true } : {}) }
}

/** Adds a score to a metric's weighted sum. */
function addTo(metrics: Map<string, { sum: number, weight: number }>, name: string, score: number, weight: number): void {
  const m = metrics.get(name) ?? { sum: 0, weight: 0 }
  m.sum += score * weight
  m.weight += weight
  metrics.set(name, m)
}

export async function runAssertions(all: readonly Assertion[], target: AssertionTarget, services: AssertionServices, threshold?: number): Promise<TestGrade> {
  // As promptfoo: a comparison of the test's outputs is not part of one output's grade; it is merged in once decided.
  const awaiting = all.filter(a => ASSERTION_HANDLERS.get(a.type)?.comparesOutputs)
  const list = awaiting.length ? all.filter(a => !awaiting.includes(a)) : all
  // promptfoo: a test with no assertions passes with score 1; one whose only assertion is a comparison scores 0 before it (its weights sum to 0).
  if (!all.length) return { pass: true, score: 1, reason: 'No assertions', named_scores: {}, assertions: [], awaiting }
  const graded = await mapLimit(list, ASSERTIONS_AT_ONCE, a => gradeOne(a, target, services))
  let total = 0
  let weights = 0
  let failed: string | undefined
  const metrics = new Map<string, { sum: number, weight: number }>()
  const grades = graded.map(({ named_score_weights: namedWeights, ...grade }) => {
    total += grade.score * grade.weight
    weights += grade.weight
    if (grade.metric) addTo(metrics, grade.metric, grade.score, grade.weight)
    // As promptfoo: the named scores the user's code returned join the test's, each weighted by its own weight × the assertion's.
    for (const [name, score] of Object.entries(grade.named_scores ?? {})) {
      if (name !== grade.metric) addTo(metrics, name, score, (namedWeights?.[name] ?? 1) * grade.weight)
    }
    if (!grade.pass) failed = grade.reason
    return grade
  })
  const score = weights > 0 ? total / weights : 0
  let pass = !failed
  let reason = failed ?? 'All assertions passed'
  if (typeof threshold === 'number' && !Number.isNaN(threshold)) {
    pass = score >= threshold
    reason = `Aggregate score ${score.toFixed(2)} ${pass ? '≥' : '<'} ${threshold} threshold`
  }
  return {
    pass,
    score,
    reason,
    named_scores: Object.fromEntries([...metrics].map(([name, m]) => [name, m.weight > 0 ? m.sum / m.weight : 0])),
    ...(metrics.size ? { named_score_weights: Object.fromEntries([...metrics].map(([name, m]) => [name, m.weight])) } : {}),
    assertions: grades,
    awaiting,
  }
}
