/**
 * Which spans an online rule scores: its filter first, then its sample. Sampling is deterministic:
 * the span's identity (trace id and span id) hashed to a fraction in [0, 1), kept when below the
 * rate, so rules with the same rate score the same spans and a span resent is decided alike.
 */
import { sha256Hex } from '../evaluator/fingerprint'
import type { GenAiCall } from './genai'
import type { AttributeValue, OtlpSpan } from './otlp'

export interface OnlineFilter {
  service_name?: string
  /** Matches the request model or the response model. */
  model?: string
  span_name?: string
  /** Each attribute must equal the value given (the span's own attributes, then its resource's). */
  attributes?: Record<string, string | number | boolean>
}

/** The span's place in [0, 1): the first 64 bits of SHA-256("<trace id>:<span id>") over 2^64, as an exact fraction's numerator. */
export function sampleKey(traceId: string, spanId: string): bigint {
  return BigInt(`0x${sha256Hex(`${traceId.toLowerCase()}:${spanId.toLowerCase()}`).slice(0, 16)}`)
}

/** Whether a rule sampling at `rate` (0–1) keeps the span: its key below rate × 2^64. */
export function sampled(traceId: string, spanId: string, rate: number): boolean {
  if (!(rate > 0)) return false
  if (rate >= 1) return true
  // The rate as a fraction of 2^64, exact to the double's precision.
  const threshold = BigInt(Math.floor(rate * 2 ** 53)) * 2n ** 11n
  return sampleKey(traceId, spanId) < threshold
}

/** Why the filter turns the span away, or null when the span passes it. */
export function filterRefusal(span: OtlpSpan, call: GenAiCall, filter: OnlineFilter): string | null {
  const service = span.resource['service.name']
  if (filter.service_name !== undefined && service !== filter.service_name) {
    return `service.name is ${shown(service)}, not "${filter.service_name}"`
  }
  if (filter.model !== undefined && call.request_model !== filter.model && call.response_model !== filter.model) {
    return `the model is ${shown(call.response_model ?? call.request_model)}, not "${filter.model}"`
  }
  if (filter.span_name !== undefined && span.name !== filter.span_name) return `the span is named ${shown(span.name)}, not "${filter.span_name}"`
  for (const [key, wanted] of Object.entries(filter.attributes ?? {})) {
    const value = key in span.attributes ? span.attributes[key] : span.resource[key]
    if (value !== wanted) return `${key} is ${shown(value)}, not ${JSON.stringify(wanted)}`
  }
  return null
}

function shown(value: AttributeValue | undefined): string {
  if (value === undefined || value === null || value === '') return 'not set'
  const text = JSON.stringify(value)
  return text.length > 80 ? `${text.slice(0, 77)}…` : text
}
