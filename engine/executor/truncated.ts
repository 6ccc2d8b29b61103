import { jsonSize } from './size-limits'
import type { RunEvent } from './types'

/**
 * Values too large to carry whole in an event or an API answer. A step's full input and output
 * live in its step row; events and answers carry them only up to a bound, and past it a marker
 * with the value's size, the start of its JSON and (in answers) where to read the whole value.
 * Browser-safe: the web app recognises the marker.
 */

/** The stand-in for a value over the bound. `href` is added by the API when the whole value can be read. */
export interface TruncatedValue {
  truncated: true
  /** Characters of the value as JSON. */
  size: number
  /** The first characters of its JSON. */
  preview: string
  href?: string
}

/** Characters of JSON a value in a stored event may have; past it the event carries a marker. */
export const EVENT_VALUE_LIMIT = 16_384
/** Characters of JSON a marker's preview holds. */
export const PREVIEW_CHARS = 500
/** A marker's own characters beside its preview, as counted against a run's storage. */
const MARKER_OVERHEAD = 64

export function isTruncated(value: unknown): value is TruncatedValue {
  return typeof value === 'object' && value !== null && (value as TruncatedValue).truncated === true
    && typeof (value as TruncatedValue).size === 'number' && typeof (value as TruncatedValue).preview === 'string'
}

export type StoredField = 'input' | 'output'

const runPath = (runId: string) => `/api/runs/${encodeURIComponent(runId)}`

/** Where the API reads a run's whole input or output: the `href` of its marker in an answer. */
export function runValueHref(runId: string, field: StoredField): string {
  return `${runPath(runId)}/${field}`
}

/** Where the API reads the whole input or output of a step's attempt: the `href` of its marker in an answer. */
export function stepValueHref(runId: string, nodeId: string, attempt: number, field: StoredField): string {
  return `${runPath(runId)}/steps/${encodeURIComponent(nodeId)}/${attempt}/${field}`
}

/**
 * A path segment as `encodeURIComponent` writes it, but `.` and `..` (as written or
 * percent-encoded), which a browser resolves to the folder above.
 */
const SEGMENT = String.raw`(?!(?:\.|%2[eE]){1,2}/)(?:[\w.!~*'()-]|%[0-9A-F]{2})+`
/** The hrefs `runValueHref` and `stepValueHref` make, and nothing else. */
const VALUE_HREF = new RegExp(`^/api/runs/${SEGMENT}/(?:steps/${SEGMENT}/[1-9][0-9]*/)?(?:input|output)$`)

/**
 * The marker in `value` as the web app shows it, or null when `value` is no marker. Its `href` is
 * kept only when it has the form the API gives its markers (a path on this server to a run's or a
 * step attempt's value): anything shaped like a marker can reach a page as data — a run's input
 * is stored as it was given — so another site's address or a `javascript:` URL is never a link.
 */
export function markerToShow(value: unknown): TruncatedValue | null {
  if (!isTruncated(value)) return null
  const { size, preview, href } = value
  return typeof href === 'string' && VALUE_HREF.test(href) ? { truncated: true, size, preview, href } : { truncated: true, size, preview }
}

/** `value` when its JSON has at most `limit` characters, else its marker. Work is bounded by the limit. */
export function boundValue(value: unknown, limit: number): unknown {
  const size = jsonSize(value, limit)
  if (size <= limit) return value
  return truncatedMarker(value, jsonSize(value))
}

function truncatedMarker(value: unknown, size: number): TruncatedValue {
  return { truncated: true, size, preview: jsonPreview(value, PREVIEW_CHARS) }
}

/** The characters `boundValue(value, limit)` stores: the value's size, or the marker's at most. */
export function boundedSize(value: unknown, limit: number): number {
  return Math.min(jsonSize(value, limit), limit + PREVIEW_CHARS + MARKER_OVERHEAD)
}

type Token = { text: string } | { value: unknown }

/**
 * The first `maxChars` characters of `value` as JSON (what `JSON.stringify` would start with),
 * built without the rest: the work is bounded by `maxChars`, however large the value.
 */
export function jsonPreview(value: unknown, maxChars: number): string {
  let out = ''
  const stack: Token[] = [{ value }]
  while (stack.length && out.length < maxChars) {
    const token = stack.pop()!
    if ('text' in token) {
      out += token.text
      continue
    }
    const item = token.value
    if (typeof item === 'string') out += stringPreview(item, maxChars - out.length)
    else if (typeof item === 'number') out += Number.isFinite(item) ? String(item) : 'null'
    else if (typeof item === 'boolean') out += String(item)
    else if (item === null || typeof item !== 'object') out += 'null'
    else if (Array.isArray(item)) {
      const tokens: Token[] = [{ text: '[' }]
      // Only as many items as could still fit: one character each at least.
      const count = Math.min(item.length, maxChars - out.length)
      for (let i = 0; i < count; i++) tokens.push(...(i ? [{ text: ',' }] : []), { value: item[i] })
      tokens.push({ text: ']' })
      for (let i = tokens.length - 1; i >= 0; i--) stack.push(tokens[i]!)
    }
    else {
      const tokens: Token[] = [{ text: '{' }]
      let i = 0
      for (const key in item) {
        // As JSON.stringify: a property whose value is undefined is left out.
        if (!Object.hasOwn(item, key) || (item as Record<string, unknown>)[key] === undefined) continue
        if (i >= maxChars - out.length) break
        tokens.push({ text: `${i++ ? ',' : ''}${stringPreview(key, maxChars)}:` }, { value: (item as Record<string, unknown>)[key] })
      }
      tokens.push({ text: '}' })
      for (let j = tokens.length - 1; j >= 0; j--) stack.push(tokens[j]!)
    }
  }
  return out.length > maxChars ? out.slice(0, maxChars) : out
}

function stringPreview(text: string, room: number): string {
  return JSON.stringify(text.length > room ? text.slice(0, Math.max(0, room)) : text)
}

/**
 * An event as it is stored and sent: every input and output in it bounded to EVENT_VALUE_LIMIT
 * (the step's row keeps the whole values; the run's row its whole output).
 */
export function boundEvent(event: RunEvent): RunEvent {
  const bound = (value: unknown) => (value === undefined ? undefined : boundValue(value, EVENT_VALUE_LIMIT))
  switch (event.type) {
    case 'step.started':
      return { ...event, input: bound(event.input) }
    case 'step.succeeded':
    case 'step.failed':
    case 'step.skipped':
    case 'step.cancelled':
      return { ...event, step: { ...event.step, input: bound(event.step.input), output: bound(event.step.output) } }
    case 'run.finished': {
      const steps = Object.fromEntries(Object.entries(event.result.steps).map(([id, step]) => [id, { ...step, output: bound(step.output) }]))
      return { ...event, result: { ...event.result, output: bound(event.result.output), steps } }
    }
    default:
      return event
  }
}

/** How much of a run one API answer carries whole (GET /api/runs/:id): per value, and all values together. */
export interface ResponseLimits {
  value: number
  total: number
}

export const RESPONSE_LIMITS: ResponseLimits = { value: 65_536, total: 2_000_000 }
