import { JudgeflowError } from '../errors'
import type { ChatMessage, ChatResponse, Providers } from '../providers/types'
import type { Prompt } from './prompts'
import { reaskMessage } from './prompts'

export interface JudgeStats {
  calls: number
  cached_calls: number
  reasks: number
  usage: { input_tokens: number, output_tokens: number }
}

/** Counts one answered call of a judge in its evaluation's stats: the call, whether it was cached, its tokens. */
export function recordCall(stats: JudgeStats, response: Pick<ChatResponse, 'cached' | 'usage'>): void {
  stats.calls++
  if (response.cached) stats.cached_calls++
  stats.usage.input_tokens += response.usage.input_tokens
  stats.usage.output_tokens += response.usage.output_tokens
}

export function newStats(): JudgeStats {
  return { calls: 0, cached_calls: 0, reasks: 0, usage: { input_tokens: 0, output_tokens: 0 } }
}

export type Validation<T> = { ok: true, value: T } | { ok: false, problem: string }

export interface JudgeRequest<T> {
  prompt: Prompt
  jsonSchema: { name: string, schema: Record<string, unknown> }
  validate: (json: unknown) => Validation<T>
  temperature: number
  maxTokens?: number
  /** Re-asks after an invalid answer. */
  maxRetries: number
  /** Provider-level retries of transient failures for this call, when set. */
  maxProviderRetries?: number
  cache?: boolean
  cacheSalt?: string
  signal?: AbortSignal
  /** Names what is judged in errors, e.g. `metric "Coverage"`. */
  what: string
}

/**
 * Asks an LLM judge for structured output and validates it. An invalid answer (unparseable JSON,
 * a missing criterion, a score out of range) is re-asked, telling the judge what was wrong, within
 * the retry budget; then the evaluation fails. It never turns into a pass.
 */
export async function askJudge<T>(providers: Providers, model: string, request: JudgeRequest<T>, stats: JudgeStats): Promise<T> {
  const messages: ChatMessage[] = [{ role: 'user', content: request.prompt.user }]
  let problem = ''
  for (let attempt = 0; attempt <= request.maxRetries; attempt++) {
    if (attempt > 0) stats.reasks++
    let json: unknown
    let text = ''
    try {
      const response = await providers.complete(model, {
        system: request.prompt.system,
        messages,
        temperature: request.temperature,
        max_tokens: request.maxTokens,
        json_schema: request.jsonSchema,
        cache: request.cache,
        cache_salt: request.cacheSalt,
        cacheable: answer => request.validate(answer.json ?? parseOrUndefined(answer.text)).ok,
      }, { signal: request.signal, maxRetries: request.maxProviderRetries })
      recordCall(stats, response)
      text = response.text
      json = response.json ?? parseOrUndefined(text)
      if (json === undefined) throw new JudgeflowError('PROVIDER_RESPONSE_INVALID', 'the answer is not valid JSON')
    }
    catch (error) {
      if (!(error instanceof JudgeflowError) || error.code !== 'PROVIDER_RESPONSE_INVALID') throw wrap(error, request.what, model)
      // The provider answered, but with nothing usable: that is a call, and worth a re-ask.
      if (!text) stats.calls++
      problem = error.message
      messages.push({ role: 'assistant', content: text || '(no usable answer)' }, { role: 'user', content: reaskMessage(problem) })
      continue
    }
    const checked = request.validate(json)
    if (checked.ok) return checked.value
    problem = checked.problem
    messages.push({ role: 'assistant', content: text }, { role: 'user', content: reaskMessage(problem) })
  }
  const asked = request.maxRetries + 1
  throw new JudgeflowError('PROVIDER_RESPONSE_INVALID', `The judge ${model} gave no valid answer for ${request.what} in ${asked} ${asked === 1 ? 'try' : 'tries'}: ${problem}.`, { category: 'provider' })
}

function parseOrUndefined(text: string): unknown {
  const trimmed = text.trim().replace(/^```(?:json)?\s*|\s*```$/g, '')
  try {
    return JSON.parse(trimmed)
  }
  catch {
    return undefined
  }
}

function wrap(error: unknown, what: string, model: string): unknown {
  if (!(error instanceof JudgeflowError) || error.category === 'user') return error
  return new JudgeflowError(error.code, `The judge ${model} failed for ${what}: ${error.message}`, { category: error.category, details: error.details, cause: error })
}

/** Runs `fn` over items with at most `limit` at once; results keep the items' order. */
export async function mapLimit<T, R>(items: readonly T[], limit: number, fn: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length)
  let next = 0
  let failed = false
  const worker = async () => {
    while (next < items.length && !failed) {
      const index = next++
      try {
        results[index] = await fn(items[index]!, index)
      }
      catch (error) {
        // All or nothing: one failure stops the others from starting new work.
        failed = true
        throw error
      }
    }
  }
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker))
  return results
}
