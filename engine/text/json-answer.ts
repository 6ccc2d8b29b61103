/**
 * Reading a model's JSON answer when the model was not held to a schema (a server without
 * structured output, JSON mode, plain text). Only what a model wraps or misspells around a
 * complete answer is repaired: a fenced block, prose before or after the object, single quotes,
 * trailing commas. Nothing is completed or guessed: an answer cut short, or with a key or value
 * missing, stays unreadable and is re-asked or reported. (General JSON repairers also close what
 * was cut off, which would turn `{"score": 0.8` of a truncated 0.85 into a valid 0.8.)
 */

export type JsonRepair = 'fenced block' | 'prose around it' | 'single quotes' | 'trailing commas'

export type JsonAnswer = { ok: true, value: unknown, repairs: JsonRepair[] } | { ok: false, problem: string }

/** Objects tried when prose before the answer has braces of its own. */
const MAX_CANDIDATES = 20

export function readJsonAnswer(text: string): JsonAnswer {
  const trimmed = text.trim()
  if (!trimmed) return { ok: false, problem: 'the answer is empty' }
  const strict = parsed(trimmed)
  if (strict !== undefined) return { ok: true, value: strict.value, repairs: [] }

  const repairs: JsonRepair[] = []
  let body = trimmed
  let prose = false
  const fence = /```[\w-]*[^\S\n]*\n([\s\S]*?)```/.exec(body)
  if (fence) {
    prose = (body.slice(0, fence.index) + body.slice(fence.index + fence[0].length)).trim() !== ''
    body = fence[1]!.trim()
    repairs.push('fenced block')
  }
  let start = body.indexOf('{')
  if (start < 0) return { ok: false, problem: 'the answer has no JSON object in it' }
  let complete = false
  for (let tried = 0; start >= 0 && tried < MAX_CANDIDATES; tried++, start = body.indexOf('{', start + 1)) {
    const end = closingBrace(body, start)
    if (end < 0) continue
    complete = true
    const around = prose || body.slice(0, start).trim() !== '' || body.slice(end + 1).trim() !== ''
    const read = repaired(body.slice(start, end + 1))
    if (read) return { ok: true, value: read.value, repairs: [...repairs, ...(around ? ['prose around it' as const] : []), ...read.repairs] }
  }
  return {
    ok: false,
    problem: complete ? 'the answer\'s JSON object is malformed beyond a fenced block, prose around it, single quotes or trailing commas' : 'the answer\'s JSON object is not complete (cut off, or a brace missing)',
  }
}

function parsed(text: string): { value: unknown } | undefined {
  try {
    return { value: JSON.parse(text) }
  }
  catch {
    return undefined
  }
}

/** The object as written, else with single-quoted strings double-quoted, and trailing commas dropped. */
function repaired(object: string): { value: unknown, repairs: JsonRepair[] } | undefined {
  const as = parsed(object)
  if (as) return { value: as.value, repairs: [] }
  const repairs: JsonRepair[] = []
  let text = object
  const quoted = doubleQuoted(text)
  if (quoted !== text) {
    text = quoted
    repairs.push('single quotes')
  }
  const trimmed = withoutTrailingCommas(text)
  if (trimmed !== text) {
    text = trimmed
    repairs.push('trailing commas')
  }
  if (!repairs.length) return undefined
  const read = parsed(text)
  return read && { value: read.value, repairs }
}

/** Where the object opened at `start` closes, strings (either quote) skipped; -1 when it never does. */
function closingBrace(text: string, start: number): number {
  let depth = 0
  for (let i = start; i < text.length; i++) {
    const c = text[i]
    if (c === '"' || c === '\'') {
      i = stringEnd(text, i)
      if (i < 0) return -1
    }
    else if (c === '{' || c === '[') depth++
    else if (c === '}' || c === ']') {
      depth--
      if (depth === 0) return c === '}' ? i : -1
    }
  }
  return -1
}

/** The index of the quote closing the string opened at `open`, escapes honoured; -1 when it is not closed. */
function stringEnd(text: string, open: number): number {
  const quote = text[open]
  for (let i = open + 1; i < text.length; i++) {
    if (text[i] === '\\') i++
    else if (text[i] === quote) return i
  }
  return -1
}

/** Single-quoted strings written as JSON strings; double-quoted ones left as they are. */
function doubleQuoted(text: string): string {
  let out = ''
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!
    if (c !== '"' && c !== '\'') {
      out += c
      continue
    }
    const end = stringEnd(text, i)
    if (end < 0) return text
    out += c === '"' ? text.slice(i, end + 1) : `"${asDoubleQuoted(text.slice(i + 1, end))}"`
    i = end
  }
  return out
}

/** A single-quoted string's inside, for double quotes: `\'` unescaped, `"` escaped, other escapes kept. */
function asDoubleQuoted(inner: string): string {
  let out = ''
  for (let i = 0; i < inner.length; i++) {
    const c = inner[i]!
    if (c === '\\') {
      const next = inner[i + 1] ?? ''
      out += next === '\'' ? '\'' : c + next
      i++
    }
    else out += c === '"' ? '\\"' : c
  }
  return out
}

const CLOSING_NEXT = /\s*[}\]]/y

/** A comma before a closing brace or bracket, outside strings, dropped. */
function withoutTrailingCommas(text: string): string {
  let out = ''
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!
    if (c === '"') {
      const end = stringEnd(text, i)
      if (end < 0) return text
      out += text.slice(i, end + 1)
      i = end
      continue
    }
    CLOSING_NEXT.lastIndex = i + 1
    if (c === ',' && CLOSING_NEXT.test(text)) continue
    out += c
  }
  return out
}
