/**
 * The fake LLM of the promptfoo parity suite: a FakeLLM handler whose every answer is decided by the
 * request's own text, so promptfoo and judgeflow, each with its own prompt wording, get the same
 * answers for the same config. The protocol is documented in README.md next to this file.
 */
import { FakeLLM, type FakeReply, type RecordedRequest } from '../../support/fake-llm'
import { arg, args, findDirectives, isReplyKind, lastEcho, type Directive } from './directives'

export const EMBEDDING_DIMENSIONS = 256
/** Usage reported for every chat answer unless a `[usage]` directive says otherwise. */
export const DEFAULT_USAGE = { input_tokens: 20, output_tokens: 10 }

/** The whole text a request carries: every message's content in order (and Anthropic's system), or the embedding inputs. */
export function requestText(request: RecordedRequest): string {
  const body = request.body ?? {}
  if (request.api === 'openai-embeddings') return ([] as unknown[]).concat(body.input ?? []).map(String).join('\n')
  const parts: string[] = []
  if (body.system) parts.push(contentText(body.system))
  for (const message of (body.messages ?? []) as Array<{ content: unknown }>) parts.push(contentText(message.content))
  return parts.join('\n')
}

function contentText(content: unknown): string {
  if (typeof content === 'string') return content
  if (Array.isArray(content)) return content.map(part => typeof part === 'string' ? part : (part as { text?: string }).text ?? '').join('')
  return ''
}

/** A unit vector from a hashed bag of lower-cased words: equal word multisets give cosine 1, disjoint ones 0. */
export function embed(text: string): number[] {
  const vector = Array.from<number>({ length: EMBEDDING_DIMENSIONS }).fill(0)
  for (const word of text.toLowerCase().match(/[a-z0-9]+/g) ?? []) vector[fnv1a(word) % EMBEDDING_DIMENSIONS]! += 1
  const norm = Math.hypot(...vector)
  return norm === 0 ? vector : vector.map(value => value / norm)
}

function fnv1a(word: string): number {
  let hash = 0x811C9DC5
  for (const byte of Buffer.from(word, 'utf8')) hash = Math.imul(hash ^ byte, 0x01000193) >>> 0
  return hash
}

function refuse(message: string): FakeReply {
  return { status: 400, body: JSON.stringify({ error: { message, type: 'invalid_request_error', code: null } }) }
}

function int(directive: Directive, key: string, fallback = 0): number {
  const value = Number(arg(directive, key) ?? fallback)
  return Number.isFinite(value) ? value : fallback
}

/** A boolean or number argument is written into JSON answers as such; anything else as the string given. */
function literal(value: string): unknown {
  if (value === 'true' || value === 'false') return value === 'true'
  return value.trim() !== '' && Number.isFinite(Number(value)) ? Number(value) : value
}

function jsonWith(directive: Directive, keys: string[], defaults: Record<string, unknown>): string {
  const answer: Record<string, unknown> = { ...defaults }
  for (const key of keys) {
    const value = arg(directive, key)
    if (value !== undefined) answer[key] = key === 'reason' || key === 'category' ? value : literal(value)
  }
  return JSON.stringify(answer)
}

/** The answer text a reply directive decides. */
export function answerFor(directive: Directive): string {
  switch (directive.kind) {
    case 'grade':
      return jsonWith(directive, ['reason', 'pass', 'score'], { reason: arg(directive, 'reason') ?? 'graded by directive' })
    case 'factuality':
      return jsonWith(directive, ['category', 'reason'], { category: 'C', reason: 'categorised by directive' })
    case 'closedqa': {
      const verdict = arg(directive, 'verdict') ?? 'Y'
      return `The criterion was checked by directive.\n${verdict}\n${verdict}`
    }
    case 'geval': {
      const answer = JSON.parse(jsonWith(directive, ['score', 'reason'], { score: 10, reason: 'scored by directive' })) as object
      return JSON.stringify({ steps: ['Check the reply against the criteria.'], ...answer })
    }
    case 'select':
      return String(arg(directive, 'index') ?? '0')
    case 'recall': {
      const attributed = int(directive, 'attributed')
      const missing = int(directive, 'not')
      return Array.from({ length: attributed + missing }, (_, i) => `${i + 1}. Sentence ${i + 1} of the answer. So ${i < attributed ? '[Attributed]' : '[Not Attributed]'}`).join('\n')
    }
    case 'relevant': {
      const quotes = args(directive, 'quote')
      return quotes.length ? quotes.join('\n') : 'Insufficient Information'
    }
    case 'faithful': {
      const supported = int(directive, 'yes')
      const unsupported = int(directive, 'no')
      // The directive rides on the first statement so that the second call, which sees only the statements, finds it again.
      return Array.from({ length: supported + unsupported }, (_, i) =>
        `${i + 1}. Statement ${i + 1}${i === 0 ? ` ${directive.canonical}` : ''}. Verdict: ${i < supported ? 'Yes' : 'No'}.`).join('\n')
    }
    case 'question':
    case 'reply':
      return arg(directive, 'text') ?? ''
    default:
      return ''
  }
}

/** The FakeLLM handler of the parity protocol. */
export function parityHandler(request: RecordedRequest): FakeReply {
  const text = requestText(request)
  const directives = findDirectives(text)
  const control = (kind: string) => directives.find(d => d.kind === kind)
  const delay = control('delay')
  const usageDirective = control('usage')
  const status = control('status')
  const reply: FakeReply = {
    delayMs: delay ? int(delay, 'ms') : undefined,
    usage: usageDirective ? { input_tokens: int(usageDirective, 'in', DEFAULT_USAGE.input_tokens), output_tokens: int(usageDirective, 'out', DEFAULT_USAGE.output_tokens) } : DEFAULT_USAGE,
  }
  if (status) return { ...reply, ...refuse(`fake status by directive ${status.canonical}`), status: int(status, 'code', 400) }
  // As OpenAI: promptfoo's provider prefix sent as part of the model's name names no model.
  const model = String(request.body?.model ?? '')
  if (/^(chat|messages|embeddings?):/.test(model)) return { ...refuse(`The model \`${model}\` does not exist or you do not have access to it.`), status: 404 }
  if (request.api === 'openai-embeddings') {
    const inputs = ([] as unknown[]).concat(request.body?.input ?? []).map(String)
    return { ...reply, embeddings: inputs.map(embed) }
  }
  const answers = [...new Set(directives.filter(d => isReplyKind(d.kind)).map(d => d.canonical))]
  if (answers.length > 1) return refuse(`the request carries ${answers.length} different reply directives (${answers.join(', ')}); the parity fake answers only one`)
  if (answers.length === 1) return { ...reply, text: answerFor(directives.find(d => d.canonical === answers[0])!) }
  const echo = lastEcho(text)
  if (echo !== undefined) return { ...reply, text: echo }
  return refuse('the request carries neither a reply directive nor an ECHO>>…<<ECHO block')
}

export async function startParityServer(port = 0): Promise<FakeLLM> {
  const fake = await new FakeLLM().start(port)
  return fake.onRequest(parityHandler)
}
