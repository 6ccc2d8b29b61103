import type { Assertion, AssertionGrade, AssertionHandler, HandlerGrade, HandlerInput } from './types'
import { MAX_VALUE_DEPTH, parseJsonWithin } from '../text/safe-json'

/**
 * `javascript` and `python`: the user's code grades the output, in a sandbox (never in this
 * process). What it returns is read as promptfoo reads it: a boolean is the verdict, a number the
 * score (passing above 0, or at `threshold`), an object `{ pass, score, reason }` the grade itself.
 */

/** A grade the user's code returned, as promptfoo's isGradingResult reads it (its parts and named scores included). */
interface ScriptGrade {
  pass: boolean
  score: number
  reason: string
  componentResults?: unknown[]
  namedScores?: Record<string, unknown>
  namedScoreWeights?: Record<string, unknown>
}

const isRecord = (value: unknown) => typeof value === 'object' && value !== null && !Array.isArray(value)
const isGrade = (value: unknown): value is ScriptGrade => {
  const grade = value as Partial<Record<keyof ScriptGrade, unknown>> | null
  return typeof value === 'object' && grade !== null && typeof grade.pass === 'boolean' && typeof grade.score === 'number' && typeof grade.reason === 'string'
    && (grade.componentResults === undefined || Array.isArray(grade.componentResults))
    && (grade.namedScores === undefined || typeof grade.namedScores === 'object') && (grade.namedScoreWeights === undefined || typeof grade.namedScoreWeights === 'object')
}

const numbers = (value: Record<string, unknown> | undefined) =>
  Object.fromEntries(Object.entries(value ?? {}).filter(([, n]) => typeof n === 'number' && Number.isFinite(n))) as Record<string, number>

/** A part the code returned, as a grade: its own assertion's type and metric, else its parent's type (as promptfoo lists it). */
function componentOf(part: unknown, type: string): AssertionGrade {
  interface Part {
    pass?: unknown
    score?: unknown
    reason?: unknown
    assertion?: { type?: unknown, metric?: unknown, weight?: unknown } | null
    componentResults?: unknown
  }
  const p = (isRecord(part) ? part : {}) as Part
  const own = isRecord(p.assertion) ? p.assertion! : {}
  return {
    type: typeof own.type === 'string' ? own.type : type,
    pass: p.pass === true,
    score: typeof p.score === 'number' ? p.score : 0,
    reason: typeof p.reason === 'string' ? p.reason : '',
    weight: typeof own.weight === 'number' ? own.weight : 1,
    ...(typeof own.metric === 'string' ? { metric: own.metric } : {}),
    ...(Array.isArray(p.componentResults) ? { components: p.componentResults.map(c => componentOf(c, type)) } : {}),
  }
}

/** What promptfoo keeps of a returned grade beside its verdict: its parts and its named scores. */
function extrasOf(grade: ScriptGrade, type: string): Pick<HandlerGrade, 'components' | 'named_scores' | 'named_score_weights'> {
  const named = numbers(grade.namedScores)
  const weights = numbers(grade.namedScoreWeights)
  return {
    ...(grade.componentResults ? { components: grade.componentResults.map(part => componentOf(part, type)) } : {}),
    ...(Object.keys(named).length ? { named_scores: named } : {}),
    ...(Object.keys(weights).length ? { named_score_weights: weights } : {}),
  }
}

const returned = (what: string, pass: boolean, code: string) => `${what} returned ${pass ? 'true' : 'false'}${code ? `\n${code}` : ''}`

function fromVerdict(assertion: Assertion, result: boolean | number, inverse: boolean, what: string, code: string): HandlerGrade {
  if (typeof result === 'boolean') {
    const pass = result !== inverse
    return { pass, score: pass ? 1 : 0, reason: pass ? 'Assertion passed' : returned(what, result, code) }
  }
  const raw = assertion.threshold === undefined ? result > 0 : result >= assertion.threshold
  const pass = raw !== inverse
  return { pass, score: result, reason: pass ? 'Assertion passed' : returned(what, raw, code) }
}

function fromGrade(grade: ScriptGrade, inverse: boolean, what: string, type: string): HandlerGrade {
  const pass = grade.pass !== inverse
  return { pass, score: grade.score, reason: pass === grade.pass ? grade.reason : pass ? 'Assertion passed' : `${what} returned ${grade.pass ? 'true' : 'false'}`, ...extrasOf(grade, type) }
}

/** JavaScript's answer: a boolean, a number or a grade object, nothing else. */
function readJavascript(assertion: Assertion, result: unknown, inverse: boolean, code: string): HandlerGrade {
  if (typeof result === 'boolean' || typeof result === 'number') return fromVerdict(assertion, result, inverse, 'Custom function', code)
  if (isGrade(result)) return fromGrade(result, inverse, 'Custom function', assertion.type)
  throw new Error(`Custom function must return a boolean, number, or GradingResult object. Got type ${typeof result}: ${JSON.stringify(result)}`)
}

/** Python's snake_case keys as promptfoo maps them (`pass_`, `named_scores`, `component_results`), its parts' too. */
function camelCased(value: Record<string, unknown>): Record<string, unknown> {
  const object = { ...value }
  const rename: Array<[string, string]> = [['pass_', 'pass'], ['named_scores', 'namedScores'], ['component_results', 'componentResults'], ['tokens_used', 'tokensUsed']]
  for (const [from, to] of rename) if (from in object && !(to in object)) object[to] = object[from]
  if (Array.isArray(object.componentResults)) {
    object.componentResults = object.componentResults.map(part => (isRecord(part) ? camelCased(part as Record<string, unknown>) : part))
  }
  return object
}

/** Python's answer: also "true"/"false", a number in text, or a grade as JSON text or with snake_case keys; a threshold caps a grade. */
function readPython(assertion: Assertion, result: unknown, inverse: boolean, code: string): HandlerGrade {
  const lower = typeof result === 'string' ? result.toLowerCase() : undefined
  if (result === true || lower === 'true') return fromVerdict(assertion, true, inverse, 'Python code', code)
  if (result === false || lower === 'false') return fromVerdict(assertion, false, inverse, 'Python code', code)
  let value = result
  if (typeof value === 'string' && value.startsWith('{')) value = parseJsonWithin(value, MAX_VALUE_DEPTH)
  if (typeof value === 'object' && value !== null) {
    const object = camelCased(value as Record<string, unknown>)
    if (!isGrade(object)) throw new Error(`Python assertion must return a boolean, number, or {pass, score, reason} object. Got instead:\n${JSON.stringify(object, null, 2)}`)
    const grade: ScriptGrade = { ...object }
    if (assertion.threshold !== undefined && grade.score < assertion.threshold) {
      const below = `Python score ${grade.score} is less than threshold ${assertion.threshold}`
      grade.pass = false
      grade.reason = grade.reason ? `${below}: ${grade.reason}` : below
    }
    return fromGrade(grade, inverse, 'Python code', assertion.type)
  }
  const score = Number.parseFloat(String(value))
  if (Number.isNaN(score)) throw new Error(`Python assertion must return a boolean, number, or {pass, score, reason} object. Instead got:\n${String(value)}`)
  return fromVerdict(assertion, score, inverse, 'Python code', code)
}

/** What the code receives as `context`, as promptfoo builds it. */
function contextOf({ assertion, target }: HandlerInput): Record<string, unknown> {
  return { prompt: target.prompt, vars: target.vars, test: { vars: target.vars }, ...(assertion.config ? { config: assertion.config } : {}) }
}

function scriptHandler(language: 'javascript' | 'python'): AssertionHandler {
  return {
    type: language,
    label: language,
    description: language === 'javascript'
      ? 'Your JavaScript (an expression, or a function body) grades `output` and `context`; it runs in a separate process with a time and memory limit.'
      : 'Your Python (an expression, or a function body) grades `output` and `context`, with the python3 on PATH, in a separate process with a time limit.',
    needs: 'code',
    negatable: true,
    check: a => (typeof a.value === 'string' && a.value.trim() ? undefined : 'must have code as its value (file:// references are not read)'),
    async handle(input) {
      const { assertion, inverse, services, target } = input
      const code = String(assertion.value).trimEnd()
      if (!services.runScript) throw new Error(`${language} assertions need a code sandbox, which this evaluation has not got`)
      try {
        const result = await services.runScript(language, code, { output: target.output, context: contextOf(input) })
        return language === 'javascript' ? readJavascript(assertion, result, inverse, code) : readPython(assertion, result, inverse, code)
      }
      catch (error) {
        const message = (error as Error).message
        return { pass: false, score: 0, reason: language === 'javascript' ? `Custom function threw error: ${message}\n${code}` : `Python code execution failed: ${message}` }
      }
    },
  }
}

export const codeHandlers: AssertionHandler[] = [scriptHandler('javascript'), scriptHandler('python')]
