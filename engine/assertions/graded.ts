import { isAbort, type AssertionHandler, type HandlerGrade } from './types'

/**
 * Assertions a grader model judges. Each asks for the answer promptfoo's grader gives for the same
 * assertion and reads it with promptfoo's rule, so a grader that agrees with itself gives both tools
 * the same verdict. A grader that fails is a failed assertion, marked as the grader's: `not-` never
 * turns it into a pass.
 */

export const RUBRIC_SYSTEM = 'You grade an output against a rubric. Answer with a JSON object: "reason" (a short explanation), "pass" (true when the output meets the rubric) and "score" (0.0 to 1.0, how well it meets it).'

export function rubricPrompt(rubric: string, output: string): string {
  return `<Output>\n${output}\n</Output>\n<Rubric>\n${rubric}\n</Rubric>`
}

const rubricAnswer = {
  type: 'object',
  properties: { reason: { type: 'string' }, pass: { type: 'boolean' }, score: { type: 'number' } },
  required: ['reason', 'pass', 'score'],
  additionalProperties: false,
}

export function graderFailure(reason: string): HandlerGrade {
  return { pass: false, score: 0, reason, graderError: true }
}

const invertScore = (score: number) => Math.min(1, Math.max(0, 1 - (Number.isFinite(score) ? score : 0)))

export const gradedHandlers: AssertionHandler[] = [
  {
    type: 'llm-rubric',
    label: 'llm-rubric',
    description: 'A grader model judges the output against the rubric (pass, and a score that must reach `threshold` when one is given).',
    needs: 'grader',
    negatable: true,
    check: a => (typeof a.value === 'string' && a.value.trim() ? undefined : 'must have the rubric (a text) as its value'),
    async handle({ assertion, text, inverse, services }) {
      if (!services.grade) throw new Error('llm-rubric needs a grader, and none is configured')
      let answer: Record<string, unknown>
      try {
        answer = await services.grade({ model: assertion.grader, what: 'llm-rubric', system: RUBRIC_SYSTEM, prompt: rubricPrompt(String(assertion.value), text), schema: rubricAnswer, judged: { output: text, criterion: String(assertion.value), threshold: assertion.threshold } })
      }
      catch (error) {
        if (isAbort(error)) throw error
        return graderFailure(`The grader gave no usable answer: ${(error as Error).message}`)
      }
      let pass = answer.pass ?? true
      if (typeof pass !== 'boolean') pass = /^(true|yes|pass|y)$/i.test(String(pass))
      let score = answer.score
      if (typeof score !== 'number') score = Number.isFinite(Number(score)) ? Number(score) : Number(pass)
      const threshold = assertion.threshold
      if (typeof threshold === 'number' && Number.isFinite(threshold)) pass = pass && (score as number) >= threshold
      const reason = typeof answer.reason === 'string' && answer.reason ? answer.reason : pass ? 'Grading passed' : `Score ${String(score)} below threshold ${String(threshold)}`
      return { pass: pass !== inverse, score: inverse ? invertScore(score as number) : score as number, reason }
    },
  },
]
