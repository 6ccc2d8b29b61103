/**
 * References: `{{input.<path>}}`, `{{steps.<nodeId>.<path>}}`, `{{attempt}}`, and `{{env.NAME}}`
 * (an environment variable an `http` step's header reads). A reference is a path lookup over plain
 * data, never code evaluation. Rendering leaves `{{env.NAME}}` as it is written: the step that may
 * read it puts the value in only as it sends it, so no stored input, event or error holds it.
 */
import { JudgeflowError } from '../errors'
import { ENV_NAME } from '../schema/env-name'

export type PathSegment = string | number

export interface Reference {
  root: 'input' | 'steps' | 'attempt' | 'env'
  nodeId?: string
  path: PathSegment[]
}

export interface ReferenceScope {
  input: unknown
  /** Latest output of each node that has produced one. */
  steps: ReadonlyMap<string, unknown>
  attempt: number
}

export const MAX_REFERENCE_DEPTH = 32
const TEMPLATE = /\{\{([^{}]*)\}\}/g
const FORBIDDEN_KEYS = new Set(['__proto__', 'prototype', 'constructor'])

export type Segment = string | Reference
const parsedTemplates = new Map<string, Segment[] | Reference>()

/** Parses the text between `{{` and `}}`. Throws a message naming what is wrong. */
export function parseReference(expression: string): Reference {
  const text = expression.trim()
  const path = parsePath(text)
  const [root, ...rest] = path
  if (root === 'attempt') {
    if (rest.length) throw new JudgeflowError('INVALID_REFERENCE', `"{{${text}}}" is not a reference: attempt has no fields`)
    return { root: 'attempt', path: [] }
  }
  if (root === 'input') return { root: 'input', path: rest }
  if (root === 'env') {
    const [name, ...more] = rest
    if (typeof name !== 'string' || !ENV_NAME.test(name) || more.length) {
      throw new JudgeflowError('INVALID_REFERENCE', `"{{${text}}}" is not a reference: env. takes one environment variable's name, such as env.API_TOKEN`)
    }
    return { root: 'env', path: [name] }
  }
  if (root === 'steps') {
    const [nodeId, ...fields] = rest
    if (typeof nodeId !== 'string' || !nodeId) throw new JudgeflowError('INVALID_REFERENCE', `"{{${text}}}" needs a node id after "steps."`)
    return { root: 'steps', nodeId, path: fields }
  }
  throw new JudgeflowError('INVALID_REFERENCE', `"{{${text}}}" is not a reference: it must start with input., steps.<nodeId>. or env., or be attempt`)
}

function parsePath(text: string): PathSegment[] {
  return parseFieldPath(text, why => new JudgeflowError('INVALID_REFERENCE', `"{{${text}}}" is not a valid reference: ${why}`))
}

/**
 * A path into a value (`choices[0].message.content`, `data["a.b"]`) as its keys and indexes; the
 * error `fail` makes of the reason when it is not one (empty, unclosed, deeper than
 * MAX_REFERENCE_DEPTH, or naming `__proto__`, `prototype` or `constructor`).
 */
export function parseFieldPath(text: string, fail: (why: string) => Error): PathSegment[] {
  const segments: PathSegment[] = []
  let i = 0
  while (i < text.length) {
    if (text[i] === '[') {
      const close = text.indexOf(']', i)
      if (close < 0) throw fail('an unclosed "["')
      const inner = text.slice(i + 1, close).trim()
      const quoted = /^(["'])(.*)\1$/.exec(inner)
      if (quoted) segments.push(quoted[2]!)
      else if (/^\d+$/.test(inner)) segments.push(Number(inner))
      else throw fail(`"[${inner}]" must be an index or a quoted key`)
      i = close + 1
      if (text[i] === '.') i++
      continue
    }
    const match = /^[^.[\]\s]+/.exec(text.slice(i))
    if (!match) throw fail(`unexpected "${text[i]}"`)
    segments.push(match[0])
    i += match[0].length
    if (text[i] === '.') {
      i++
      if (i >= text.length) throw fail('it ends with "."')
    }
  }
  if (!segments.length) throw fail('it is empty')
  if (segments.length > MAX_REFERENCE_DEPTH) throw fail(`it is deeper than ${MAX_REFERENCE_DEPTH} fields`)
  for (const s of segments) if (typeof s === 'string' && FORBIDDEN_KEYS.has(s)) throw fail(`"${s}" cannot be looked up`)
  return segments
}

/** A template's text and references, parsed once and cached; a lone reference is returned by itself. */
export function parseTemplate(template: string): Segment[] | Reference {
  const cached = parsedTemplates.get(template)
  if (cached) return cached
  const segments: Segment[] = []
  let last = 0
  for (const match of template.matchAll(TEMPLATE)) {
    if (match.index > last) segments.push(template.slice(last, match.index))
    segments.push(parseReference(match[1]!))
    last = match.index + match[0].length
  }
  if (last < template.length) segments.push(template.slice(last))
  const whole = segments.length === 1 && typeof segments[0] !== 'string' ? segments[0]! : segments
  if (parsedTemplates.size > 10_000) parsedTemplates.clear()
  parsedTemplates.set(template, whole)
  return whole
}

export function lookup(value: unknown, path: readonly PathSegment[]): unknown {
  let current = value
  for (const key of path) {
    if (current === null || typeof current !== 'object') return undefined
    if (!Object.hasOwn(current, key)) return undefined
    current = (current as Record<PathSegment, unknown>)[key]
  }
  return current
}

export function resolveReference(ref: Reference, scope: ReferenceScope): unknown {
  if (ref.root === 'attempt') return scope.attempt
  if (ref.root === 'input') return lookup(scope.input, ref.path)
  if (ref.root === 'env') return `{{env.${ref.path[0]}}}`
  return lookup(scope.steps.get(ref.nodeId!), ref.path)
}

export function stringifyValue(value: unknown): string {
  if (value === undefined || value === null) return ''
  if (typeof value === 'string') return value
  if (typeof value === 'object') return JSON.stringify(value)
  return String(value)
}

/** A string that is exactly one reference keeps the referenced value's type; otherwise text. */
export function renderTemplate(template: string, scope: ReferenceScope): unknown {
  if (!template.includes('{{')) return template
  const parsed = parseTemplate(template)
  if (!Array.isArray(parsed)) {
    const value = resolveReference(parsed, scope)
    return value === undefined ? '' : value
  }
  let out = ''
  for (const segment of parsed) out += typeof segment === 'string' ? segment : stringifyValue(resolveReference(segment, scope))
  return out
}

/** Renders every string inside a config value. */
export function renderValue(value: unknown, scope: ReferenceScope): unknown {
  if (typeof value === 'string') return renderTemplate(value, scope)
  if (Array.isArray(value)) return value.map(item => renderValue(item, scope))
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {}
    for (const [key, item] of Object.entries(value)) out[key] = renderValue(item, scope)
    return out
  }
  return value
}

export interface FoundReference {
  /** Where in the value, e.g. `prompt` or `criteria[0].description`. */
  field: string
  expression: string
  reference?: Reference
  error?: string
  /** The reference is the whole value (it keeps the referenced value's type), not a part of a text. */
  whole?: boolean
}

/** Every reference inside a value, with where it was found; parse problems are reported, not thrown. */
export function findReferences(value: unknown, field = ''): FoundReference[] {
  const found: FoundReference[] = []
  const visit = (item: unknown, at: string) => {
    if (typeof item === 'string') {
      for (const match of item.matchAll(TEMPLATE)) {
        try {
          found.push({ field: at, expression: match[0], reference: parseReference(match[1]!), ...(item === match[0] ? { whole: true } : {}) })
        }
        catch (error) {
          found.push({ field: at, expression: match[0], error: (error as Error).message })
        }
      }
    }
    else if (Array.isArray(item)) item.forEach((child, i) => visit(child, `${at}[${i}]`))
    else if (item && typeof item === 'object') {
      for (const [key, child] of Object.entries(item)) visit(child, at ? `${at}.${key}` : key)
    }
  }
  visit(value, field)
  return found
}
