import { graderFailure } from './graded'
import { cosine, embed } from './similarity'
import { isAbort, type Assertion, type AssertionHandler, type HandlerGrade, type HandlerInput } from './types'
import { MAX_VALUE_DEPTH, parseJsonWithin } from '../text/safe-json'

/**
 * The model-graded assertions beside llm-rubric, each asking its grader for the answer promptfoo's
 * grader gives for it (a verdict letter, a category, numbered lines, a score out of 10) and reading it
 * with promptfoo's rule. The prompts are judgeflow's own; what they carry (the criterion, the expected
 * answer, the query, the context, the output) is what promptfoo's carry.
 */

const EPSILON = Number.EPSILON
const lines = (text: string) => text.split('\n').filter(line => line.trim() !== '')

/** Asks for text; a grader that fails is a grader failure (never inverted). */
async function ask(input: HandlerInput, what: string, system: string, prompt: string): Promise<string | HandlerGrade> {
  if (!input.services.ask) throw new Error(`${what} needs a grader, and none is configured`)
  try {
    const answer = await input.services.ask({ model: input.assertion.grader, what, system, prompt, judged: { output: input.text, criterion: String(input.assertion.value ?? ''), threshold: input.assertion.threshold } })
    return answer.trim() ? answer : graderFailure('No output')
  }
  catch (error) {
    if (isAbort(error)) throw error
    return graderFailure((error as Error).message)
  }
}

/** promptfoo's `vars.context` (a text, or a list joined by blank lines), else the fallback (the prompt), else none. */
function contextOf(input: HandlerInput, fallback: string | undefined): string | string[] | undefined {
  const context = input.target.vars.context
  if (typeof context === 'string' && context) return context
  if (Array.isArray(context) && context.length) {
    if (context.some(item => typeof item !== 'string')) throw new Error('Invalid context: expected an array of strings')
    return context as string[]
  }
  return fallback
}
const joined = (context: string | string[]) => (Array.isArray(context) ? context.join('\n\n') : context)

/** A RAG score against the assertion's threshold (0.5 by default), its `not-` flipping pass and score. */
function ragGrade(input: HandlerInput, score: number, reason: (pass: boolean, threshold: number) => string): HandlerGrade {
  const threshold = input.assertion.threshold ?? 0.5
  const pass = score >= threshold - EPSILON
  const grade = { pass, score, reason: reason(pass, threshold) }
  return input.inverse ? { ...grade, pass: !pass, score: 1 - score } : grade
}

/** The user's question (vars.query) and the retrieved context (vars.context) a context-* assertion needs, or an error naming the missing var. */
function queryAndContext(input: HandlerInput): { query: string, context: string | string[] } {
  const type = input.baseType
  const query = input.target.vars.query
  if (typeof query !== 'string') throw new Error(`${type} assertion requires a "query" variable with the user question`)
  const context = contextOf(input, undefined)
  if (!context) throw new Error(`${type} assertion requires a "context" variable`)
  return { query, context }
}

/** Units of a context for relevance: one per line when it has two or more lines, else its sentences. */
function contextUnits(text: string): string[] {
  const nonEmpty = lines(text)
  return (nonEmpty.length > 1 ? nonEmpty : text.split(/(?<=[.!?])\s+/)).map(s => s.trim()).filter(s => s.length > 0 && !/^\d+[.)]$/.test(s))
}

const FACTUALITY = 'You compare a submitted answer with an expert answer to the same question. Choose one category: (A) the submission is a subset of the expert answer and consistent with it; (B) it is a superset and consistent; (C) it has the same details; (D) it disagrees with the expert answer; (E) the answers differ, but the differences do not matter for factuality. Answer with a JSON object: {"category": "<letter>", "reason": "<why>"}.'
const CLOSED_QA = 'You judge whether a submission meets a criterion. Reason step by step, then write the single letter Y (it meets the criterion) or N (it does not) on the last line, alone.'
const GEVAL_STEPS = 'You write evaluation steps for criteria. Answer with a JSON object: {"steps": ["<step>", …]}.'
const GEVAL_SCORE = 'You evaluate a reply against criteria, following the steps given. Answer with a JSON object: {"score": <0 to 10>, "reason": "<why>"}.'
const QUESTION = 'You write the one question the given answer answers. Reply with the question alone.'
const RECALL = 'For each sentence of the expected answer, say whether the context supports it. Write one numbered line per sentence, ending with [Attributed] or [Not Attributed].'
const RELEVANCE = 'Quote, one per line, the sentences of the context needed to answer the query, exactly as they are written. If none is, reply "Insufficient Information".'
const STATEMENTS = 'Break the answer to the question into short standalone statements, one per line.'
const VERDICTS = 'For each statement, say whether the context supports it: one line per statement, "Statement k. Verdict: Yes." or "Statement k. Verdict: No."'

const textValue = (a: Assertion) => (typeof a.value === 'string' && a.value.trim() ? undefined : 'must have a text value')

/** The score of each category: promptfoo's, or the test's `options.factuality` (kept in the assertion's config). */
function factualityScores(assertion: Assertion): Record<string, number> {
  const given = (assertion.config?.factuality ?? {}) as Record<string, unknown>
  const score = (key: string, fallback: number) => (typeof given[key] === 'number' ? given[key] as number : fallback)
  return { A: score('subset', 1), B: score('superset', 1), C: score('agree', 1), D: score('disagree', 0), E: score('differButFactual', 1) }
}

function categoryGrade(category: string, reason: string, scores: Record<string, number>): HandlerGrade {
  const pass = (scores[category] ?? 0) > 0
  return { pass, score: scores[category] ?? (pass ? 1 : 0), reason }
}

function readFactuality(answer: string, scores: Record<string, number>): HandlerGrade {
  const json = /\{[\s\S]*\}/.exec(answer)
  if (json) {
    try {
      const parsed = parseJsonWithin(json[0], MAX_VALUE_DEPTH) as { category?: unknown, reason?: unknown }
      if (typeof parsed.category === 'string' && parsed.category) {
        const category = parsed.category.trim().toUpperCase()
        if (!/^[A-E]$/.test(category)) return { pass: false, score: 0, reason: `Invalid category value: ${category}` }
        return categoryGrade(category, typeof parsed.reason === 'string' && parsed.reason.trim() ? parsed.reason.trim() : `Category ${category}`, scores)
      }
    }
    catch {
      // Not JSON: the older form "(A) reason" below.
    }
  }
  const legacy = /\s*\(?([a-eA-E])\)/.exec(answer)
  if (!legacy) return { pass: false, score: 0, reason: 'Invalid JSON response format and could not parse legacy format' }
  const category = legacy[1]!.toUpperCase()
  return categoryGrade(category, answer.slice(legacy.index + legacy[0].length).trim() || `Category ${category}`, scores)
}

async function gEvalOne(input: HandlerInput, criteria: string, threshold: number): Promise<HandlerGrade> {
  if (!input.target.prompt) throw new Error('No source text to estimate reply')
  const steps = await ask(input, 'g-eval', GEVAL_STEPS, `Criteria:\n${criteria}`)
  if (typeof steps !== 'string') return steps
  const found = /\{"steps".+\}/.exec(steps)
  let list: unknown
  try {
    list = found ? (parseJsonWithin(found[0], MAX_VALUE_DEPTH) as { steps?: unknown }).steps : undefined
  }
  catch {
    list = undefined
  }
  if (!Array.isArray(list) || !list.length || !list.every(step => typeof step === 'string' && step.trim())) return graderFailure(`LLM-proposed evaluation steps are not usable: ${steps.slice(0, 200)}`)
  const scored = await ask(input, 'g-eval', GEVAL_SCORE, `Criteria:\n${criteria}\n\nSteps:\n- ${list.join('\n- ')}\n\nSource:\n${input.target.prompt}\n\nReply:\n${input.text}`)
  if (typeof scored !== 'string') return scored
  let result: { score?: unknown, reason?: unknown } | undefined
  try {
    const match = /\{.+\}/.exec(scored)
    result = match ? parseJsonWithin(match[0], MAX_VALUE_DEPTH) as { score?: unknown, reason?: unknown } : undefined
  }
  catch {
    result = undefined
  }
  if (!result) return graderFailure(`LLM-proposed evaluation result is not in JSON format: ${scored.slice(0, 200)}`)
  const raw = typeof result.score === 'number' ? result.score : typeof result.score === 'string' && result.score.trim() ? Number(result.score) : Number.NaN
  if (!Number.isFinite(raw)) return graderFailure(`G-Eval result has invalid or missing score: ${JSON.stringify(result.score)}`)
  if (raw < 0 || raw > 10) return graderFailure(`G-Eval result score ${raw} is outside the expected 0-10 range`)
  if (typeof result.reason !== 'string' || !result.reason.trim()) return graderFailure(`G-Eval result has invalid or missing reason: ${JSON.stringify(result.reason)}`)
  return { pass: raw / 10 >= threshold, score: raw / 10, reason: result.reason }
}

export const modelGradedHandlers: AssertionHandler[] = [
  {
    type: 'factuality', label: 'factuality', description: 'A grader places the output against the expert answer (subset, superset, same, disagrees, differs harmlessly); it fails only when it disagrees.', needs: 'grader', negatable: true, notInverted: true,
    check: textValue,
    async handle(input) {
      const answer = await ask(input, 'factuality', FACTUALITY, `Question:\n${input.target.prompt ?? ''}\n\nExpert answer:\n${String(input.assertion.value)}\n\nSubmitted answer:\n${input.text}`)
      return typeof answer === 'string' ? readFactuality(answer, factualityScores(input.assertion)) : { ...answer, graderError: undefined }
    },
  },
  {
    type: 'model-graded-closedqa', label: 'model-graded-closedqa', description: 'A grader answers Y or N: does the output meet the criterion?', needs: 'grader', negatable: true, notInverted: true,
    check: textValue,
    async handle(input) {
      const answer = await ask(input, 'model-graded-closedqa', CLOSED_QA, `[Task]: ${input.target.prompt ?? ''}\n[Submission]: ${input.text}\n[Criterion]: ${String(input.assertion.value)}`)
      if (typeof answer !== 'string') return { ...answer, graderError: undefined }
      const end = answer.trimEnd()
      const pass = end.endsWith('Y')
      return { pass, score: pass ? 1 : 0, reason: pass ? `The submission meets the criterion:\n${answer}` : end.endsWith('N') ? `The submission does not meet the criterion:\n${answer}` : `Model grader produced a malformed response:\n${answer}` }
    },
  },
  {
    type: 'g-eval', label: 'g-eval', description: 'G-Eval: a grader writes evaluation steps for the criteria, then scores the output 0–10; passes at `threshold` (default 0.7) of 10. A list of criteria is averaged.', needs: 'grader', negatable: true,
    check: a => (typeof a.value === 'string' || (Array.isArray(a.value) && a.value.every(v => typeof v === 'string')) ? undefined : 'must have criteria (a text or a list of texts) as its value'),
    async handle(input) {
      const threshold = input.assertion.threshold ?? 0.7
      const list = Array.isArray(input.assertion.value) ? input.assertion.value as string[] : [String(input.assertion.value)]
      if (!list.length) return { pass: false, score: 0, reason: 'G-Eval assertion requires at least one criterion string in the value array.' }
      const grades: HandlerGrade[] = []
      for (const [i, criteria] of list.entries()) {
        const grade = await gEvalOne(input, criteria, threshold)
        if (grade.graderError) return list.length > 1 ? { ...grade, reason: `G-Eval criterion ${i + 1}/${list.length} (${JSON.stringify(criteria)}) failed: ${grade.reason}` } : grade
        grades.push(grade)
      }
      const score = grades.reduce((sum, g) => sum + g.score, 0) / grades.length
      return { pass: (score >= threshold) !== input.inverse, score: input.inverse ? 1 - score : score, reason: grades.map(g => g.reason).join('\n\n') }
    },
  },
  {
    type: 'answer-relevance', label: 'answer-relevance', description: 'A grader writes three questions the output answers; their mean embedding similarity to the query (vars.query, else the prompt) must reach `threshold` (default 0.5).', needs: 'grader', alsoEmbeds: true, negatable: true,
    async handle(input) {
      const query = typeof input.target.vars.query === 'string' ? input.target.vars.query : input.target.prompt
      if (!query) throw new Error('answer-relevance assertion type must have a prompt')
      const questions: string[] = []
      for (let i = 0; i < 3; i++) {
        const question = await ask(input, 'answer-relevance', QUESTION, `Answer:\n${input.text}`)
        if (typeof question !== 'string') return question
        questions.push(question)
      }
      const vectors = await embed(input, [query, ...questions])
      if (!Array.isArray(vectors)) return vectors
      const score = vectors.slice(1).reduce((sum, v) => sum + cosine(vectors[0]!, v), 0) / questions.length
      return ragGrade(input, score, (pass, threshold) => `Relevance ${score.toFixed(2)} is ${pass ? 'greater' : 'less'} than threshold ${threshold}`)
    },
  },
  {
    type: 'context-recall', label: 'context-recall', description: 'A grader says which sentences of the expected answer the context (vars.context, else the prompt) supports; the share must reach `threshold` (default 0.5).', needs: 'grader', negatable: true,
    check: textValue,
    async handle(input) {
      const context = contextOf(input, input.target.prompt)
      if (!context) throw new Error('context-recall assertion requires a prompt')
      const answer = await ask(input, 'context-recall', RECALL, `Context:\n${joined(context)}\n\nExpected answer:\n${String(input.assertion.value)}`)
      if (typeof answer !== 'string') return answer
      const classified = lines(answer).filter(line => /\[attributed\]|\[not attributed\]/i.test(line))
      if (!classified.length) return graderFailure('Grader returned no [Attributed]/[Not Attributed] classifications')
      const attributed = classified.filter(line => !/\[not attributed\]/i.test(line)).length
      const score = attributed / classified.length
      return ragGrade(input, score, (pass, threshold) => `Recall ${score.toFixed(2)} is ${pass ? '>=' : '<'} ${threshold}`)
    },
  },
  {
    type: 'context-relevance', label: 'context-relevance', description: 'A grader quotes the sentences of the context (vars.context) needed for the query (vars.query); their share must reach `threshold` (default 0.5).', needs: 'grader', negatable: true,
    async handle(input) {
      const { query, context } = queryAndContext(input)
      const text = joined(context)
      const answer = await ask(input, 'context-relevance', RELEVANCE, `Query:\n${query}\n\nContext:\n${text}`)
      if (typeof answer !== 'string') return answer
      const segmented = Array.isArray(context) || lines(context).length > 1
      const units = Array.isArray(context) ? context.filter(chunk => chunk.trim()) : contextUnits(context)
      const insufficient = answer.includes('Insufficient Information')
      const quoted = insufficient ? [] : [...new Set(segmented ? lines(answer) : contextUnits(answer))]
      const normal = (value: string) => value.toLowerCase().replace(/\s+/g, ' ').trim()
      if (quoted.length && !quoted.some(line => normal(text).includes(normal(line.replace(/^\s*(?:\d+[.)]|[-*])\s*/, ''))))) return graderFailure('Grader output does not quote the provided context')
      const score = units.length ? Math.min(quoted.length, units.length) / units.length : 0
      return ragGrade(input, score, (pass, threshold) => `Context relevance ${score.toFixed(2)} is ${pass ? '>=' : '<'} ${threshold}`)
    },
  },
  {
    type: 'context-faithfulness', label: 'context-faithfulness', description: 'A grader splits the output into statements and checks each against the context (vars.context); the share supported must reach `threshold` (default 0.5).', needs: 'grader', negatable: true,
    async handle(input) {
      const { query, context } = queryAndContext(input)
      const first = await ask(input, 'context-faithfulness', STATEMENTS, `Question:\n${query}\n\nAnswer:\n${input.text}`)
      if (typeof first !== 'string') return first
      const statements = lines(first)
      if (!statements.length) return graderFailure('Could not extract context-faithfulness statements')
      const second = await ask(input, 'context-faithfulness', VERDICTS, `Context:\n${joined(context)}\n\nStatements:\n${statements.join('\n')}`)
      if (typeof second !== 'string') return second
      const verdicts = second.toLowerCase().trim()
      const marker = 'final verdict for each statement in order:'
      let score: number | undefined
      if (verdicts.includes(marker)) {
        const parts = verdicts.slice(verdicts.indexOf(marker) + marker.length).split('.').filter(part => part.trim())
        if (parts.length && parts.every(part => /\b(?:yes|no)\b/.test(part))) score = 1 - (parts.filter(part => !part.includes('yes')).length + Math.max(0, statements.length - parts.length)) / statements.length
      }
      else {
        const no = verdicts.split('verdict: no').length - 1
        const yes = verdicts.split('verdict: yes').length - 1
        if (no + yes > 0) score = 1 - (no + Math.max(0, statements.length - no - yes)) / statements.length
      }
      if (score === undefined) return graderFailure('Could not parse context-faithfulness verdicts')
      score = Math.min(1, Math.max(0, score))
      const final = score
      return ragGrade(input, final, (pass, threshold) => `Faithfulness ${final.toFixed(2)} is ${pass ? '>=' : '<'} ${threshold}`)
    },
  },
]
