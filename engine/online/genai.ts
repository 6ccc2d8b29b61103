/**
 * What a span says about one model call, read through the OpenTelemetry GenAI semantic conventions:
 * the messages in and out (`gen_ai.input.messages`, `gen_ai.output.messages`, as JSON text or as
 * structured attribute values), the system instructions, the models, the token usage and the tool
 * calls. Spans from OpenInference instrumentations carry `input.value` / `output.value` instead,
 * and older GenAI instrumentations `gen_ai.prompt` / `gen_ai.completion`: read when the messages
 * are absent, and the view says which it used.
 */
import {
  ATTR_GEN_AI_COMPLETION, ATTR_GEN_AI_INPUT_MESSAGES, ATTR_GEN_AI_OPERATION_NAME, ATTR_GEN_AI_OUTPUT_MESSAGES, ATTR_GEN_AI_PROMPT,
  ATTR_GEN_AI_PROVIDER_NAME, ATTR_GEN_AI_REQUEST_MODEL, ATTR_GEN_AI_RESPONSE_MODEL, ATTR_GEN_AI_SYSTEM, ATTR_GEN_AI_SYSTEM_INSTRUCTIONS,
  ATTR_GEN_AI_TOOL_CALL_ARGUMENTS, ATTR_GEN_AI_TOOL_CALL_ID, ATTR_GEN_AI_TOOL_CALL_RESULT, ATTR_GEN_AI_TOOL_NAME,
  ATTR_GEN_AI_USAGE_INPUT_TOKENS, ATTR_GEN_AI_USAGE_OUTPUT_TOKENS,
} from '@opentelemetry/semantic-conventions/incubating'
import { readJson } from '../text/safe-json'
import type { AttributeValue, OtlpSpan } from './otlp'

/** OpenInference's attributes (not in the OpenTelemetry conventions). */
const INPUT_VALUE = 'input.value'
const OUTPUT_VALUE = 'output.value'

/** One part of a message, as the GenAI conventions define the parts judgeflow reads. */
export type MessagePart
  = | { type: 'text', content: string }
    | { type: 'tool_call', id: string | null, name: string, arguments: unknown }
    | { type: 'tool_call_response', id: string | null, response: unknown }

export interface Message {
  role: string
  parts: MessagePart[]
}

export interface GenAiCall {
  /** `gen_ai.operation.name` (chat, text_completion, execute_tool, invoke_agent, …), null when the span is not a GenAI span. */
  operation: string | null
  provider: string | null
  request_model: string | null
  response_model: string | null
  input_messages: Message[]
  output_messages: Message[]
  system_instructions: string | null
  /** The text judged as the input: the last user message's text (or the fallback's). */
  input_text: string | null
  /** The text judged as the output: the output messages' text (or the fallback's). */
  output_text: string | null
  usage: { input_tokens: number | null, output_tokens: number | null }
  /** Where the texts came from: the GenAI messages, OpenInference's values, or the deprecated prompt/completion. */
  source: 'gen_ai.messages' | 'openinference' | 'gen_ai.prompt' | null
  /** An `execute_tool` span's own call. */
  tool: { name: string, call_id: string | null, arguments: unknown, result: unknown } | null
}

/** Attribute text nesting deeper than this is read as text, not as messages. */
const MAX_MESSAGE_DEPTH = 32

export function genAiCall(span: OtlpSpan): GenAiCall {
  const a = span.attributes
  const operation = text(a[ATTR_GEN_AI_OPERATION_NAME])
  const input = messages(a[ATTR_GEN_AI_INPUT_MESSAGES])
  const output = messages(a[ATTR_GEN_AI_OUTPUT_MESSAGES])
  const fromMessages = input.length > 0 || output.length > 0
  const fallback = fromMessages ? null : fallbackTexts(a)
  const toolName = text(a[ATTR_GEN_AI_TOOL_NAME])
  return {
    operation,
    provider: text(a[ATTR_GEN_AI_PROVIDER_NAME]) ?? text(a[ATTR_GEN_AI_SYSTEM]),
    request_model: text(a[ATTR_GEN_AI_REQUEST_MODEL]),
    response_model: text(a[ATTR_GEN_AI_RESPONSE_MODEL]),
    input_messages: input,
    output_messages: output,
    system_instructions: instructions(a[ATTR_GEN_AI_SYSTEM_INSTRUCTIONS]),
    input_text: fromMessages ? lastUserText(input) : fallback?.input ?? null,
    output_text: fromMessages ? joinedText(output) : fallback?.output ?? null,
    usage: { input_tokens: count(a[ATTR_GEN_AI_USAGE_INPUT_TOKENS]), output_tokens: count(a[ATTR_GEN_AI_USAGE_OUTPUT_TOKENS]) },
    source: fromMessages ? 'gen_ai.messages' : fallback?.source ?? null,
    tool: toolName ? toolCall(toolName, a) : null,
  }
}

/** Whether the span describes a GenAI operation, or carries what a GenAI or OpenInference span carries. */
export function isGenAiSpan(span: OtlpSpan): boolean {
  const a = span.attributes
  return a[ATTR_GEN_AI_OPERATION_NAME] !== undefined || a[ATTR_GEN_AI_INPUT_MESSAGES] !== undefined
    || a[ATTR_GEN_AI_OUTPUT_MESSAGES] !== undefined || a[INPUT_VALUE] !== undefined || a[OUTPUT_VALUE] !== undefined
}

function toolCall(name: string, a: Record<string, AttributeValue>): GenAiCall['tool'] {
  return {
    name,
    call_id: text(a[ATTR_GEN_AI_TOOL_CALL_ID]),
    arguments: structured(a[ATTR_GEN_AI_TOOL_CALL_ARGUMENTS]),
    result: structured(a[ATTR_GEN_AI_TOOL_CALL_RESULT]),
  }
}

function fallbackTexts(a: Record<string, AttributeValue>): { input: string | null, output: string | null, source: GenAiCall['source'] } | null {
  if (a[INPUT_VALUE] !== undefined || a[OUTPUT_VALUE] !== undefined) {
    return { input: valueText(a[INPUT_VALUE]), output: valueText(a[OUTPUT_VALUE]), source: 'openinference' }
  }
  if (a[ATTR_GEN_AI_PROMPT] !== undefined || a[ATTR_GEN_AI_COMPLETION] !== undefined) {
    return { input: valueText(a[ATTR_GEN_AI_PROMPT]), output: valueText(a[ATTR_GEN_AI_COMPLETION]), source: 'gen_ai.prompt' }
  }
  return null
}

const text = (value: AttributeValue | undefined): string | null => (typeof value === 'string' && value !== '' ? value : null)

function count(value: AttributeValue | undefined): number | null {
  const n = typeof value === 'string' ? Number(value) : value
  return typeof n === 'number' && Number.isFinite(n) && n >= 0 ? n : null
}

/** A value given as JSON text is read as JSON (depth-checked); other text stays text. */
function structured(value: AttributeValue | undefined): unknown {
  if (typeof value !== 'string') return value ?? null
  const trimmed = value.trimStart()
  if (!trimmed.startsWith('{') && !trimmed.startsWith('[')) return value
  const read = readJson(value, MAX_MESSAGE_DEPTH)
  return read.ok ? read.value : value
}

/** A value's text: text as it is, anything else as its JSON. */
function valueText(value: AttributeValue | undefined): string | null {
  if (value === undefined || value === null) return null
  return typeof value === 'string' ? value : JSON.stringify(value)
}

function messages(value: AttributeValue | undefined): Message[] {
  const read = structured(value)
  if (!Array.isArray(read)) return []
  return read.flatMap((m) => {
    if (typeof m !== 'object' || m === null) return []
    const { role, parts, content } = m as { role?: unknown, parts?: unknown, content?: unknown }
    // Some instrumentations still write `content` (text) instead of `parts`.
    const read = Array.isArray(parts) ? parts.flatMap(part) : typeof content === 'string' ? [{ type: 'text' as const, content }] : []
    return [{ role: typeof role === 'string' ? role : 'unknown', parts: read }]
  })
}

function part(raw: unknown): MessagePart[] {
  if (typeof raw !== 'object' || raw === null) return []
  const p = raw as Record<string, unknown>
  const id = typeof p.id === 'string' ? p.id : null
  if (p.type === 'text' && typeof p.content === 'string') return [{ type: 'text', content: p.content }]
  if (p.type === 'tool_call' && typeof p.name === 'string') return [{ type: 'tool_call', id, name: p.name, arguments: p.arguments ?? null }]
  if (p.type === 'tool_call_response') return [{ type: 'tool_call_response', id, response: p.response ?? p.result ?? null }]
  return []
}

function instructions(value: AttributeValue | undefined): string | null {
  const read = structured(value)
  if (typeof read === 'string') return read || null
  if (!Array.isArray(read)) return null
  const parts = read.flatMap(part)
  return parts.length ? parts.map(p => (p.type === 'text' ? p.content : '')).filter(Boolean).join('\n') || null : null
}

const partsText = (m: Message) => m.parts.map(p => (p.type === 'text' ? p.content : '')).filter(Boolean).join('\n')

function lastUserText(list: Message[]): string | null {
  for (let i = list.length - 1; i >= 0; i--) if (list[i]!.role === 'user' && partsText(list[i]!)) return partsText(list[i]!)
  return null
}

function joinedText(list: Message[]): string | null {
  return list.map(partsText).filter(Boolean).join('\n') || null
}
