/**
 * Spans in, decisions out: the GenAI spans of an export request are stored, and each span that
 * carries an input or an output is seen by every enabled rule, which decides at once — its filter
 * first (`filtered`, with the filter's reason), then its sample (`sampled_out`), else `queued` for
 * scoring. The spans and the decisions commit together before the request is acknowledged.
 */
import { genAiCall, isGenAiSpan, type GenAiCall } from '../../engine/online/genai'
import type { OtlpSpan } from '../../engine/online/otlp'
import { filterRefusal, sampled } from '../../engine/online/selection'
import type { OnlineDecisionRow, OnlineDecisionStatus, OnlineRuleRow, OnlineSpanRow } from '../online-rows'
import type { Store } from '../store'

/** The characters of JSON a stored span's attributes may take; past it, the attributes that do not fit are named, not kept. */
export const STORED_ATTRIBUTES_CHARS = 256 * 1024
/** The attribute naming the attributes not kept. */
export const DROPPED_ATTRIBUTES = 'judgeflow.dropped_attributes'

export interface IngestResult {
  /** GenAI spans in the request, and of them those new to the store. */
  spans: number
  stored: number
  /** Decisions taken, by status. */
  decisions: Partial<Record<OnlineDecisionStatus, number>>
}

/** Stores the request's GenAI spans and the rules' decisions for them, in one commit. */
export async function ingestSpans(store: Store, spans: readonly OtlpSpan[], now = Date.now()): Promise<IngestResult> {
  const calls = spans.filter(isGenAiSpan).map(span => ({ span, call: genAiCall(span) }))
  if (!calls.length) return { spans: 0, stored: 0, decisions: {} }
  const rules = (await store.online.listRules()).filter(rule => rule.enabled)
  const decisions: OnlineDecisionRow[] = []
  for (const { span, call } of calls) {
    if (!isScorable(call)) continue
    for (const rule of rules) decisions.push(decisionRow(rule, span, call, now))
  }
  const stored = await store.online.ingest(calls.map(({ span, call }) => spanRow(span, call, now)), decisions)
  const counts: IngestResult['decisions'] = {}
  for (const d of decisions) counts[d.status as OnlineDecisionStatus] = (counts[d.status as OnlineDecisionStatus] ?? 0) + 1
  return { spans: calls.length, stored: stored.spans, decisions: counts }
}

/** Rules see the spans with something to judge: an input or an output (a tool's own span has neither). */
export function isScorable(call: GenAiCall): boolean {
  return call.input_text !== null || call.output_text !== null
}

/** What a rule decides for a span when it arrives: filtered, sampled out, or queued for scoring. */
export function decide(rule: Pick<OnlineRuleRow, 'filter' | 'sampleRate'>, span: OtlpSpan, call: GenAiCall): Pick<OnlineDecisionRow, 'status' | 'reason'> {
  const refusal = filterRefusal(span, call, rule.filter)
  if (refusal !== null) return { status: 'filtered', reason: refusal }
  if (!sampled(span.trace_id, span.span_id, rule.sampleRate)) return { status: 'sampled_out', reason: `not in the ${rule.sampleRate * 100}% sample` }
  return { status: 'queued', reason: null }
}

function decisionRow(rule: OnlineRuleRow, span: OtlpSpan, call: GenAiCall, now: number): OnlineDecisionRow {
  const { status, reason } = decide(rule, span, call)
  return {
    ruleId: rule.id, traceId: span.trace_id, spanId: span.span_id, status, reason,
    score: null, verdict: null, runId: null, costUsd: null, decidedAt: now, claimedAt: null, updatedAt: now,
  }
}

/** The row a span is stored as: its texts as the GenAI conventions give them, its times in milliseconds, its attributes bounded. */
export function spanRow(span: OtlpSpan, call: GenAiCall, now: number): OnlineSpanRow {
  const service = span.resource['service.name']
  const usage = call.usage.input_tokens === null && call.usage.output_tokens === null ? null : call.usage
  return {
    traceId: span.trace_id,
    spanId: span.span_id,
    parentSpanId: span.parent_span_id,
    name: span.name,
    serviceName: typeof service === 'string' ? service : null,
    operation: call.operation,
    model: call.response_model ?? call.request_model,
    inputText: call.input_text,
    outputText: call.output_text,
    systemInstructions: call.system_instructions,
    usage,
    statusCode: span.status.code,
    startedAt: millis(span.start_time_unix_nano),
    endedAt: millis(span.end_time_unix_nano),
    attributes: boundedAttributes(span.attributes),
    receivedAt: now,
  }
}

/** Nanoseconds since the epoch (decimal text) as milliseconds. */
function millis(nanos: string): number {
  return Number(BigInt(nanos) / BigInt(1_000_000))
}

/** The attributes in their order while their JSON fits STORED_ATTRIBUTES_CHARS; those that do not are named under DROPPED_ATTRIBUTES. */
export function boundedAttributes(attributes: Record<string, unknown>): Record<string, unknown> {
  const kept: Record<string, unknown> = {}
  const dropped: string[] = []
  let size = 2
  for (const [key, value] of Object.entries(attributes)) {
    const entry = JSON.stringify(key).length + JSON.stringify(value ?? null).length + 2
    if (size + entry > STORED_ATTRIBUTES_CHARS) dropped.push(key)
    else {
      kept[key] = value
      size += entry
    }
  }
  if (dropped.length) kept[DROPPED_ATTRIBUTES] = dropped.slice(0, 100)
  return kept
}
