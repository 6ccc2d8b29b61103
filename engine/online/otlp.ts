/**
 * OTLP/HTTP JSON trace requests (ExportTraceServiceRequest) read into plain spans. The JSON
 * mapping of OTLP: trace and span ids in hex, 64-bit integers as decimal strings, enums as
 * integers, field names in lowerCamelCase (the protobuf names in snake_case are accepted too, as
 * protobuf's JSON readers accept them). A span that breaks a limit or the format is rejected alone,
 * with its reason; the others are kept, and the answer says how many were rejected and why
 * (OTLP's `partialSuccess`).
 */

/** An attribute value as OTLP's AnyValue maps it to JSON. */
export type AttributeValue = string | number | boolean | null | AttributeValue[] | { [key: string]: AttributeValue }

export interface OtlpSpan {
  trace_id: string
  span_id: string
  parent_span_id: string | null
  name: string
  /** SpanKind: 0 unspecified, 1 internal, 2 server, 3 client, 4 producer, 5 consumer. */
  kind: number
  /** Nanoseconds since the epoch, kept as decimal text (they pass 2^53). */
  start_time_unix_nano: string
  end_time_unix_nano: string
  /** 0 unset, 1 ok, 2 error. */
  status: { code: number, message: string | null }
  attributes: Record<string, AttributeValue>
  /** The resource's attributes (`service.name` among them). */
  resource: Record<string, AttributeValue>
  scope: { name: string | null, version: string | null }
  events: Array<{ name: string, time_unix_nano: string, attributes: Record<string, AttributeValue> }>
}

export interface OtlpLimits {
  /** The most spans one request may carry; the spans past it are rejected. */
  maxSpans: number
  /** The most characters one attribute value may hold (a string, or an array's or map's JSON). */
  maxAttributeChars: number
  /** The most attributes one span may carry (its events' included). */
  maxAttributes: number
}

export const DEFAULT_OTLP_LIMITS: OtlpLimits = { maxSpans: 5_000, maxAttributeChars: 256 * 1024, maxAttributes: 512 }

export interface OtlpRead {
  spans: OtlpSpan[]
  /** Spans not kept, and why (the first reasons, each with how many spans it turned away). */
  rejected: { count: number, reasons: string[] }
}

type Json = Record<string, unknown>

const HEX_TRACE_ID = /^[0-9a-f]{32}$/i
const HEX_SPAN_ID = /^[0-9a-f]{16}$/i
const ALL_ZERO = /^0+$/
const NANOS = /^\d{1,20}$/
/** How many distinct rejection reasons an answer names. */
const REASONS_NAMED = 5
/** AnyValue nests arrays and maps; deeper than this is refused, not walked. */
const MAX_VALUE_DEPTH = 16

class SpanRejected extends Error {}

/** A field by its JSON name or its protobuf name. */
function field(object: Json, camel: string, snake?: string): unknown {
  return object[camel] ?? (snake ? object[snake] : undefined)
}

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value)
const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : [])

/** The request's spans, each with its resource and scope; a body that is not an ExportTraceServiceRequest is refused whole. */
export function readOtlpTraces(body: unknown, limits: OtlpLimits = DEFAULT_OTLP_LIMITS): OtlpRead {
  if (!isObject(body)) throw new TypeError('the body is not an OTLP ExportTraceServiceRequest: expected a JSON object with "resourceSpans"')
  const resourceSpans = field(body, 'resourceSpans', 'resource_spans')
  if (resourceSpans !== undefined && !Array.isArray(resourceSpans)) throw new TypeError('"resourceSpans" must be a list')
  const spans: OtlpSpan[] = []
  const reasons = new Map<string, number>()
  let rejected = 0
  const reject = (reason: string) => {
    rejected++
    reasons.set(reason, (reasons.get(reason) ?? 0) + 1)
  }
  for (const rs of list(resourceSpans)) {
    if (!isObject(rs)) continue
    const resource = readAttributes(field(isObject(rs.resource) ? rs.resource : {}, 'attributes'), limits, 'resource')
    for (const ss of list(field(rs, 'scopeSpans', 'scope_spans'))) {
      if (!isObject(ss)) continue
      const scope = isObject(ss.scope) ? ss.scope : {}
      const scopeOf = { name: typeof scope.name === 'string' ? scope.name : null, version: typeof scope.version === 'string' ? scope.version : null }
      for (const raw of list(ss.spans)) {
        if (spans.length >= limits.maxSpans) {
          reject(`more than ${limits.maxSpans} spans in one request`)
          continue
        }
        try {
          if (!isObject(raw)) throw new SpanRejected('a span is not an object')
          spans.push(readSpan(raw, resource, scopeOf, limits))
        }
        catch (error) {
          if (!(error instanceof SpanRejected)) throw error
          reject(error.message)
        }
      }
    }
  }
  const named = [...reasons].slice(0, REASONS_NAMED).map(([reason, count]) => (count > 1 ? `${reason} (${count} spans)` : reason))
  return { spans, rejected: { count: rejected, reasons: named } }
}

function readSpan(raw: Json, resource: Record<string, AttributeValue>, scope: OtlpSpan['scope'], limits: OtlpLimits): OtlpSpan {
  const traceId = id(field(raw, 'traceId', 'trace_id'), HEX_TRACE_ID, 'traceId', 32)
  const spanId = id(field(raw, 'spanId', 'span_id'), HEX_SPAN_ID, 'spanId', 16)
  const parent = field(raw, 'parentSpanId', 'parent_span_id')
  const status = isObject(raw.status) ? raw.status : {}
  const attributes = readAttributes(raw.attributes, limits, `span ${spanId}`)
  const events = list(raw.events).filter(isObject).map(event => ({
    name: typeof event.name === 'string' ? event.name : '',
    time_unix_nano: nanos(field(event, 'timeUnixNano', 'time_unix_nano'), 'an event\'s timeUnixNano'),
    attributes: readAttributes(event.attributes, limits, `span ${spanId}'s event`),
  }))
  const counted = Object.keys(attributes).length + events.reduce((sum, e) => sum + Object.keys(e.attributes).length, 0)
  if (counted > limits.maxAttributes) throw new SpanRejected(`a span carries more than ${limits.maxAttributes} attributes`)
  return {
    trace_id: traceId.toLowerCase(),
    span_id: spanId.toLowerCase(),
    parent_span_id: typeof parent === 'string' && parent !== '' ? id(parent, HEX_SPAN_ID, 'parentSpanId', 16).toLowerCase() : null,
    name: typeof raw.name === 'string' ? raw.name : '',
    kind: enumValue(raw.kind),
    start_time_unix_nano: nanos(field(raw, 'startTimeUnixNano', 'start_time_unix_nano'), 'startTimeUnixNano'),
    end_time_unix_nano: nanos(field(raw, 'endTimeUnixNano', 'end_time_unix_nano'), 'endTimeUnixNano'),
    status: { code: enumValue(status.code), message: typeof status.message === 'string' && status.message ? status.message : null },
    attributes,
    resource,
    scope,
    events,
  }
}

function id(value: unknown, shape: RegExp, name: string, digits: number): string {
  if (typeof value !== 'string' || !shape.test(value)) throw new SpanRejected(`${name} is not ${digits} hex digits`)
  if (ALL_ZERO.test(value)) throw new SpanRejected(`${name} is all zeros (an invalid id)`)
  return value
}

function nanos(value: unknown, name: string): string {
  if (value === undefined || value === null || value === '') return '0'
  if (typeof value === 'number' && Number.isInteger(value) && value >= 0) return String(value)
  if (typeof value === 'string' && NANOS.test(value)) return value.replace(/^0+(?=\d)/, '')
  throw new SpanRejected(`${name} is not a count of nanoseconds (a decimal integer)`)
}

/** An OTLP enum: its number (JSON mapping), or 0 when absent. */
function enumValue(value: unknown): number {
  return typeof value === 'number' && Number.isInteger(value) ? value : 0
}

function readAttributes(raw: unknown, limits: OtlpLimits, where: string): Record<string, AttributeValue> {
  const out: Record<string, AttributeValue> = {}
  for (const kv of list(raw)) {
    if (!isObject(kv) || typeof kv.key !== 'string') continue
    const value = anyValue(kv.value, 0)
    const size = typeof value === 'string' ? value.length : value !== null && typeof value === 'object' ? JSON.stringify(value).length : 0
    if (size > limits.maxAttributeChars) throw new SpanRejected(`${where}: attribute "${kv.key.slice(0, 100)}" holds more than ${limits.maxAttributeChars} characters`)
    out[kv.key] = value
  }
  return out
}

/** OTLP's AnyValue as a JSON value: int64 as a number when it is exact, as its decimal text otherwise; bytes as base64 text. */
function anyValue(raw: unknown, depth: number): AttributeValue {
  if (!isObject(raw)) return null
  if (depth > MAX_VALUE_DEPTH) throw new SpanRejected(`an attribute value nests more than ${MAX_VALUE_DEPTH} levels`)
  if (typeof raw.stringValue === 'string') return raw.stringValue
  if (typeof raw.boolValue === 'boolean') return raw.boolValue
  if (raw.intValue !== undefined) return intValue(raw.intValue)
  if (raw.doubleValue !== undefined) return typeof raw.doubleValue === 'number' ? raw.doubleValue : Number(raw.doubleValue)
  if (typeof raw.bytesValue === 'string') return raw.bytesValue
  const array = field(raw, 'arrayValue', 'array_value')
  if (isObject(array)) return list(array.values).map(v => anyValue(v, depth + 1))
  const kvlist = field(raw, 'kvlistValue', 'kvlist_value')
  if (isObject(kvlist)) {
    const map: Record<string, AttributeValue> = {}
    for (const kv of list(kvlist.values)) if (isObject(kv) && typeof kv.key === 'string') map[kv.key] = anyValue(kv.value, depth + 1)
    return map
  }
  return null
}

function intValue(raw: unknown): number | string {
  if (typeof raw === 'number') return raw
  if (typeof raw === 'string' && /^-?\d+$/.test(raw)) {
    const n = Number(raw)
    return Number.isSafeInteger(n) ? n : raw
  }
  throw new SpanRejected('an intValue is not a decimal integer')
}
