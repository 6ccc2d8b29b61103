/**
 * A production call as the `trace` evaluation type reads a trace: the user's request as the
 * objective, then the steps the model took — its text as thoughts, each tool call and each tool
 * result — from the call's messages and from the `execute_tool` spans beneath it, in time order.
 * A span (or a tool span) whose status is ERROR is the outcome's failure; an error followed by more
 * steps is recorded as an error recovery.
 */
import type { ReasoningTrace, TraceStep } from '../trace/schema'
import { genAiCall, type GenAiCall, type Message } from './genai'
import type { OtlpSpan } from './otlp'

const STATUS_ERROR = 2

export interface TraceOptions {
  /** The outcome's confidence: production spans carry none, so the rule says what to assume (1 unless given). */
  confidence?: number
  /** `metadata.task_domain`, choosing the trace scoring profile. */
  domain?: string
}

/** The call's trace; `spans` are the other spans of its trace (its tool spans among them), in any order. */
export function traceOfCall(span: OtlpSpan, spans: readonly OtlpSpan[], options: TraceOptions = {}): ReasoningTrace {
  const call = genAiCall(span)
  const steps: TraceStep[] = [...messageSteps(call), ...toolSpanSteps(span, spans)].map((step, i) => ({ ...step, step_id: i + 1 }))
  if (!steps.length) steps.push({ step_id: 1, type: 'thought', content: call.output_text ?? '' })
  const failed = span.status.code === STATUS_ERROR
  return {
    id: `${span.trace_id}:${span.span_id}`,
    metadata: { task_domain: options.domain ?? 'default', success: !failed },
    task: { objective: call.input_text ?? call.system_instructions ?? span.name },
    steps,
    outcome: { confidence: options.confidence ?? 1, ...(call.output_text ? { result_summary: call.output_text.slice(0, 2_000) } : {}) },
  }
}

/** The steps written in the call's messages: what follows the last user message (the earlier turns are the conversation, not this call's work). */
function messageSteps(call: GenAiCall): Omit<TraceStep, 'step_id'>[] {
  const all: Message[] = [...call.input_messages, ...call.output_messages]
  let start = 0
  for (let i = call.input_messages.length - 1; i >= 0; i--) {
    if (call.input_messages[i]!.role === 'user') {
      start = i + 1
      break
    }
  }
  const steps: Omit<TraceStep, 'step_id'>[] = []
  for (const message of all.slice(start)) {
    for (const part of message.parts) {
      if (part.type === 'text' && message.role !== 'user') steps.push({ type: 'thought', content: part.content })
      else if (part.type === 'tool_call') steps.push({ type: 'tool_call', tool: { name: part.name }, input: part.arguments })
      else if (part.type === 'tool_call_response') steps.push({ type: 'observation', output: part.response })
    }
  }
  return steps
}

/** The `execute_tool` spans beneath the call (children and their descendants), each a call and its observation, an error as a recovery when more follows. */
function toolSpanSteps(root: OtlpSpan, spans: readonly OtlpSpan[]): Omit<TraceStep, 'step_id'>[] {
  const below = descendants(root, spans)
    .map(s => ({ span: s, call: genAiCall(s) }))
    .filter(({ call }) => call.tool !== null)
    .sort((a, b) => compareNanos(a.span.start_time_unix_nano, b.span.start_time_unix_nano))
  return below.flatMap(({ span, call }, i) => {
    const tool = call.tool!
    const failed = span.status.code === STATUS_ERROR
    const result: Omit<TraceStep, 'step_id'> = failed && i < below.length - 1
      ? { type: 'error_recovery', content: span.status.message ?? `${tool.name} failed` }
      : { type: 'observation', output: failed ? { error: span.status.message ?? 'failed' } : tool.result }
    return [{ type: 'tool_call' as const, tool: { name: tool.name }, input: tool.arguments }, result]
  })
}

/** The spans beneath `root` (children and their descendants), in the order `spans` gives them. */
function descendants(root: OtlpSpan, spans: readonly OtlpSpan[]): OtlpSpan[] {
  const children = new Map<string, string[]>()
  for (const s of spans) {
    if (s.trace_id !== root.trace_id || !s.parent_span_id) continue
    children.set(s.parent_span_id, [...(children.get(s.parent_span_id) ?? []), s.span_id])
  }
  const below = new Set<string>()
  const stack = [...(children.get(root.span_id) ?? [])]
  while (stack.length) {
    const next = stack.pop()!
    if (below.has(next) || next === root.span_id) continue
    below.add(next)
    stack.push(...(children.get(next) ?? []))
  }
  return spans.filter(s => s.trace_id === root.trace_id && below.has(s.span_id))
}

function compareNanos(a: string, b: string): number {
  return a.length !== b.length ? a.length - b.length : a < b ? -1 : a > b ? 1 : 0
}
