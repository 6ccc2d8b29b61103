/**
 * A stored span's trace as the `trace` evaluation type reads it: the stored spans of its trace
 * turned back into OTLP spans (their attributes as stored, times in milliseconds) and read by
 * traceOfCall, so the call's tool calls — in its messages and in its `execute_tool` child spans — are its steps.
 */
import type { AttributeValue, OtlpSpan } from '../../engine/online/otlp'
import { traceOfCall } from '../../engine/online/trace-of'
import type { ReasoningTrace } from '../../engine/trace/schema'
import type { OnlineSpanRow } from '../online-rows'
import type { Store } from '../store'

/** The spans of one trace read for it at most. */
export const TRACE_SPANS_READ = 500

export async function spanTrace(store: Store, span: OnlineSpanRow): Promise<ReasoningTrace> {
  const spans = await store.online.traceSpans(span.traceId, TRACE_SPANS_READ)
  return traceOfCall(otlpSpanOf(span), spans.map(otlpSpanOf))
}

export function otlpSpanOf(row: OnlineSpanRow): OtlpSpan {
  const nanos = (ms: number) => (BigInt(ms) * BigInt(1_000_000)).toString()
  return {
    trace_id: row.traceId,
    span_id: row.spanId,
    parent_span_id: row.parentSpanId,
    name: row.name,
    kind: 0,
    start_time_unix_nano: nanos(row.startedAt),
    end_time_unix_nano: nanos(row.endedAt),
    status: { code: row.statusCode, message: null },
    attributes: row.attributes as Record<string, AttributeValue>,
    resource: row.serviceName === null ? {} : { 'service.name': row.serviceName },
    scope: { name: null, version: null },
    events: [],
  }
}
