import { JudgeflowError } from '../errors'
import { formatPath } from '../graph/path'

/**
 * JSON from users (request bodies, files) is checked before anything else walks it: every
 * recursive walk further on (validation, references, storing, presenting) stays far from the
 * stack's end, no object can carry a `__proto__` key into code that assigns keys one by one, and
 * no text holds a NUL character, which PostgreSQL cannot store in text.
 */

/** Nesting levels a JSON value may have by default (JUDGEFLOW_MAX_JSON_DEPTH). */
export const DEFAULT_MAX_JSON_DEPTH = 64
/** The highest JUDGEFLOW_MAX_JSON_DEPTH honoured: the deepest value the engine is tested with. */
export const MAX_JSON_DEPTH_CEILING = 1000
/**
 * Values a run works with (a step's rendered config, its output) nest at most this many levels:
 * references can place one deep value inside another, and the stores and views behind a run
 * are tested up to here.
 */
export const MAX_VALUE_DEPTH = 2 * MAX_JSON_DEPTH_CEILING
const FORBIDDEN_KEY = '__proto__'
const NUL = '\u0000'
/** Why text with a NUL character is refused, wherever it is found (a body, a file, a URL). */
export const NUL_REFUSAL = 'text may not hold the NUL character (\\u0000)'
const MAX_PATH_TEXT = 200

export interface JsonShapeProblem {
  kind: 'too_deep' | 'forbidden_key' | 'nul_character'
  /** Where, as a field path (`nodes[0].config`); empty for the value itself. */
  path: string
}

interface Frame {
  value: unknown
  depth: number
  parent: Frame | null
  key: string | number | null
}

/**
 * The first place where `value` nests objects and arrays more than `maxDepth` levels (the value
 * itself is level 1), has an own `__proto__` key (unless `anyKey`), or, with `noNul`, a key or a
 * text holding a NUL character; null when there is none. Iterative, so any depth is safe to check.
 */
export function jsonShapeProblem(value: unknown, maxDepth: number, options: { anyKey?: boolean, noNul?: boolean } = {}): JsonShapeProblem | null {
  const stack: Frame[] = [{ value, depth: 1, parent: null, key: null }]
  while (stack.length) {
    const frame = stack.pop()!
    if (options.noNul && typeof frame.value === 'string' && frame.value.includes(NUL)) return { kind: 'nul_character', path: pathOf(frame) }
    if (frame.value === null || typeof frame.value !== 'object') continue
    if (frame.depth > maxDepth) return { kind: 'too_deep', path: pathOf(frame) }
    if (Array.isArray(frame.value)) {
      for (let i = frame.value.length - 1; i >= 0; i--) stack.push({ value: frame.value[i], depth: frame.depth + 1, parent: frame, key: i })
      continue
    }
    const keys = Object.keys(frame.value)
    for (let i = keys.length - 1; i >= 0; i--) {
      const key = keys[i]!
      if (key === FORBIDDEN_KEY && !options.anyKey) return { kind: 'forbidden_key', path: pathOf(frame) }
      if (options.noNul && key.includes(NUL)) return { kind: 'nul_character', path: pathOf(frame) }
      stack.push({ value: (frame.value as Record<string, unknown>)[key], depth: frame.depth + 1, parent: frame, key })
    }
  }
  return null
}

/** What is wrong with a value's shape, as the end of a sentence whose subject is the value. */
export function shapeReason(problem: JsonShapeProblem, maxDepth: number): string {
  const at = problem.path || '(top level)'
  return problem.kind === 'forbidden_key'
    ? `is refused: "__proto__" is not allowed as a key (at ${at})`
    : problem.kind === 'nul_character'
      ? `is refused: ${NUL_REFUSAL} (at ${at})`
      : tooDeepReason(maxDepth, at)
}

/** The sentence's end for text or a value nested deeper than the limit, `at` a path or a line; one wording for every format. */
export function tooDeepReason(maxDepth: number, at: string): string {
  return `nests objects and arrays more than ${maxDepth} levels deep (at ${at}): flatten it, or raise JUDGEFLOW_MAX_JSON_DEPTH (at most ${MAX_JSON_DEPTH_CEILING})`
}

/** Throws a user error naming `where` and the path when the value is too deep, has a `__proto__` key, or text with a NUL character. */
export function assertJsonShape(value: unknown, options: { maxDepth: number, where: string }): void {
  const problem = jsonShapeProblem(value, options.maxDepth, { noNul: true })
  if (!problem) return
  throw new JudgeflowError('INVALID_INPUT', `${options.where} ${shapeReason(problem, options.maxDepth)}.`, {
    details: { path: problem.path, limit: problem.kind === 'too_deep' ? options.maxDepth : undefined },
  })
}

export type JsonRead = { ok: true, value: unknown } | { ok: false, reason: string, details?: { path: string, limit?: number } }

/**
 * JSON text parsed and checked with jsonShapeProblem, or why not, as the end of a sentence whose
 * subject is the text. V8's JSON.parse builds any depth without recursing; the check follows.
 */
export function readJson(text: string, maxDepth: number): JsonRead {
  let value: unknown
  try {
    value = JSON.parse(text)
  }
  catch (error) {
    return { ok: false, reason: `is not valid JSON: ${syntaxReason(error)}` }
  }
  const problem = jsonShapeProblem(value, maxDepth, { noNul: true })
  if (!problem) return { ok: true, value }
  return { ok: false, reason: shapeReason(problem, maxDepth), details: { path: problem.path, limit: problem.kind === 'too_deep' ? maxDepth : undefined } }
}

/** JSON text parsed and checked with assertJsonShape; text that is not JSON is a user error naming `where`. */
export function parseJsonChecked(text: string, options: { maxDepth: number, where: string }): unknown {
  const read = readJson(text, options.maxDepth)
  if (read.ok) return read.value
  throw new JudgeflowError('INVALID_INPUT', `${options.where} ${read.reason}.`, { details: read.details })
}

/**
 * JSON text a model or a user gave, read as JSON.parse reads it (any key; its syntax errors thrown
 * as they are, for the caller's own message) and refused with a user error when it nests more than
 * `maxDepth` levels: whatever walks the value after it by recursion stays far from the stack's end.
 */
export function parseJsonWithin(text: string, maxDepth: number): unknown {
  const value: unknown = JSON.parse(text)
  const problem = jsonShapeProblem(value, maxDepth, { anyKey: true })
  if (problem) {
    throw new JudgeflowError('INVALID_INPUT', `The JSON nests objects and arrays more than ${maxDepth} levels deep (at ${problem.path || '(top level)'}).`, {
      details: { path: problem.path, limit: maxDepth },
    })
  }
  return value
}

/**
 * JSON typed or opened in the web app, as parseJsonWithin reads it: the page refuses only what no
 * configuration would take (MAX_JSON_DEPTH_CEILING); the server applies its own limit when it is sent.
 */
export function parseTypedJson(text: string): unknown {
  return parseJsonWithin(text, MAX_JSON_DEPTH_CEILING)
}

/** The parser's reason without the excerpt of the text that V8 quotes in some messages. */
function syntaxReason(error: unknown): string {
  return (error as Error).message.replace(/, ".*" is not valid JSON$/s, '')
}

function pathOf(frame: Frame): string {
  const keys: Array<string | number> = []
  for (let f: Frame | null = frame; f?.parent; f = f.parent) keys.push(f.key!)
  const path = formatPath(keys.reverse())
  return path.length > MAX_PATH_TEXT ? `${path.slice(0, MAX_PATH_TEXT / 2)}…${path.slice(-MAX_PATH_TEXT / 2)}` : path
}
