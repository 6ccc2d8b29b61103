import { JudgeflowError } from '../errors'
import type { ChatRequest, ChatResponse, ProviderAdapter } from './types'

/**
 * The caller's own providers (the library's `providers` option): a model judgeflow does not call
 * itself — a company gateway, a fine-tune behind an internal API, a stub in a test — named
 * `<id>:<model>` in workflows and evaluator configs like `openai:…`. Each answers a chat request.
 */

/** A caller's provider's answer: the text, or the text with its JSON, model and token usage. */
export type CallerAnswer = string | {
  text: string
  /** The parsed answer when the request asked for `json_schema` (else judgeflow reads it from `text`). */
  json?: unknown
  /** The model that answered (the one asked for unless given). */
  model?: string
  usage?: { input_tokens: number, output_tokens: number }
}

/** What a caller's provider is asked: the model (the part after `<id>:`), the request and an abort signal. */
export type CallerComplete = (model: string, request: ChatRequest, options: { signal?: AbortSignal }) => Promise<CallerAnswer> | CallerAnswer

export interface CallerProvider {
  complete: CallerComplete
  /** One vector per text (promptfoo's `similar` assertions, trace novelty); without it embeddings are refused. */
  embed?: (model: string, texts: string[], options: { signal?: AbortSignal }) => Promise<number[][]> | number[][]
}

/** The caller's providers by id: `{ gateway: async (model, request) => '…' }` or `{ gateway: { complete, embed } }`. */
export type CallerProviders = Record<string, CallerProvider | CallerComplete>

/** A provider id as a model reference spells it (`modelRefSchema`). */
const PROVIDER_ID = /^[a-z][a-z0-9_-]{0,39}$/

/** The caller's providers as adapters (createProviders' `adapters`), each checked: a bad id or shape is refused naming it. */
export function callerAdapters(providers: CallerProviders): ProviderAdapter[] {
  return Object.entries(providers).map(([id, given]) => {
    if (!PROVIDER_ID.test(id)) throw new JudgeflowError('INVALID_CONFIG', `providers: "${id}" is not a provider id: use lower-case letters, digits, "-" and "_", starting with a letter (it is written "${id}:<model>")`)
    if (id === 'local') throw new JudgeflowError('INVALID_CONFIG', 'providers: "local" is judgeflow\'s offline judge (local:heuristic) and cannot be replaced; give your provider another id')
    const provider = typeof given === 'function' ? { complete: given } : given
    if (!provider || typeof provider.complete !== 'function') throw new JudgeflowError('INVALID_CONFIG', `providers.${id}: give a function (model, request) => answer, or { complete, embed? }`)
    const adapter: ProviderAdapter = {
      id,
      async send(model, request, options) {
        return answerOf(id, model, await provider.complete(model, request, { signal: options.signal }))
      },
    }
    if (provider.embed) {
      const embed = provider.embed
      adapter.embed = async (model, texts, options) => embed(model, texts, { signal: options.signal })
    }
    return adapter
  })
}

/** The answer checked: a text (or an object with a `text`), else a sentence naming the provider. */
function answerOf(id: string, model: string, answer: CallerAnswer): Omit<ChatResponse, 'latency_ms' | 'cached'> {
  if (typeof answer === 'string') return { text: answer, model, usage: { input_tokens: 0, output_tokens: 0 } }
  if (!answer || typeof answer !== 'object' || typeof answer.text !== 'string') {
    throw new JudgeflowError('PROVIDER_RESPONSE_INVALID', `the provider "${id}" answered ${id}:${model} with ${answer === null ? 'null' : typeof answer}: answer a text, or { text, usage? }`)
  }
  return {
    text: answer.text, model: answer.model ?? model, usage: answer.usage ?? { input_tokens: 0, output_tokens: 0 },
    ...(answer.json === undefined ? {} : { json: answer.json }),
  }
}
