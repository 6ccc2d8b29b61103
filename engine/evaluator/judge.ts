import { JudgeflowError } from '../errors'
import type { ChatMessage, ChatResponse, Providers, StructuredOutput } from '../providers/types'
import { costOf } from '../providers/prices'
import { readJsonAnswer } from '../text/json-answer'
import type { Prompt } from './prompts'
import { reaskMessage } from './prompts'

export interface JudgeStats {
  calls: number
  cached_calls: number
  reasks: number
  /** Answers read only after a repair (a fenced block, prose around it, single quotes, trailing commas). */
  repaired: number
  /** How the last answer was held to its schema (a server without JSON Schema is asked in JSON mode or plain text). */
  structured?: StructuredOutput
  usage: { input_tokens: number, output_tokens: number }
  /** What the calls cost in US dollars at their models' prices (a cached answer costs nothing). */
  cost_usd: number
  /** The models called whose price judgeflow does not know: the cost is then unknown. */
  unpriced: string[]
}

/** Counts one answered call of a judge in its evaluation's stats: the call, whether it was cached, its tokens and cost. */
export function recordCall(stats: JudgeStats, model: string, response: Pick<ChatResponse, 'cached' | 'usage'>): void {
  stats.calls++
  if (response.cached) stats.cached_calls++
  stats.usage.input_tokens += response.usage.input_tokens
  stats.usage.output_tokens += response.usage.output_tokens
  if (response.cached) return
  const cost = costOf(model, response.usage)
  if (cost === null) {
    if (!stats.unpriced.includes(model)) stats.unpriced.push(model)
  }
  else {
    stats.cost_usd += cost
  }
}

export function newStats(): JudgeStats {
  return { calls: 0, cached_calls: 0, reasks: 0, repaired: 0, usage: { input_tokens: 0, output_tokens: 0 }, cost_usd: 0, unpriced: [] }
}

/** The stats' cost in US dollars, rounded to a millionth of a cent; null when a model called has no known price. */
export function costOfStats(stats: JudgeStats): number | null {
  return stats.unpriced.length ? null : Math.round(stats.cost_usd * 1e8) / 1e8
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

/** How much of a judge's last answer an error quotes. */
const QUOTED_ANSWER_CHARS = 300

/**
 * Asks an LLM judge for structured output and validates it. An answer not held to the schema by
 * the server is read from its text, repaired only of what is wrapped or misspelt around a
 * complete answer (readJsonAnswer). An invalid answer (unreadable JSON, a missing criterion, a
 * score out of range) is re-asked, telling the judge what was wrong, within the retry budget;
 * then the evaluation fails with an error naming the model and quoting what it returned. It
 * never turns into a pass or a score of 0.
 */
export async function askJudge<T>(providers: Providers, model: string, request: JudgeRequest<T>, stats: JudgeStats): Promise<T> {
  const messages: ChatMessage[] = [{ role: 'user', content: request.prompt.user }]
  let problem = ''
  let lastText = ''
  for (let attempt = 0; attempt <= request.maxRetries; attempt++) {
    if (attempt > 0) stats.reasks++
    let text = ''
    let answer: ReturnType<typeof answerOf>
    try {
      const response = await providers.complete(model, {
        system: request.prompt.system,
        messages,
        temperature: request.temperature,
        max_tokens: request.maxTokens,
        json_schema: request.jsonSchema,
        cache: request.cache,
        cache_salt: request.cacheSalt,
        cacheable: (cached) => {
          const read = answerOf(cached)
          return read.ok && request.validate(read.value).ok
        },
      }, { signal: request.signal, maxRetries: request.maxProviderRetries })
      recordCall(stats, model, response)
      if (response.structured) stats.structured = response.structured
      lastText = text = response.text
      answer = answerOf(response)
    }
    catch (error) {
      if (!(error instanceof JudgeflowError) || error.code !== 'PROVIDER_RESPONSE_INVALID') throw wrap(error, request.what, model)
      // The provider answered, but with nothing usable: that is a call, and worth a re-ask.
      stats.calls++
      problem = error.message
      messages.push({ role: 'assistant', content: '(no usable answer)' }, { role: 'user', content: reaskMessage(problem) })
      continue
    }
    if (!answer.ok) {
      problem = answer.problem
      messages.push({ role: 'assistant', content: text || '(an empty answer)' }, { role: 'user', content: reaskMessage(`${problem}: answer with the JSON object only`) })
      continue
    }
    const checked = request.validate(answer.value)
    if (checked.ok) {
      if (answer.repairs.length) stats.repaired++
      return checked.value
    }
    problem = checked.problem
    messages.push({ role: 'assistant', content: text }, { role: 'user', content: reaskMessage(problem) })
  }
  const asked = request.maxRetries + 1
  const quoted = lastText.length > QUOTED_ANSWER_CHARS ? `${lastText.slice(0, QUOTED_ANSWER_CHARS)}…` : lastText
  throw new JudgeflowError('PROVIDER_RESPONSE_INVALID', `The judge ${model} gave no valid answer for ${request.what} in ${asked} ${asked === 1 ? 'try' : 'tries'}: ${problem}. Its last answer: ${lastText ? JSON.stringify(quoted) : '(none)'}`, {
    category: 'provider', details: { model, answer: quoted },
  })
}

/** The answer's JSON: as the provider parsed it, else read from its text (with the repairs made). */
function answerOf(response: Pick<ChatResponse, 'json' | 'text'>) {
  return response.json !== undefined ? { ok: true as const, value: response.json, repairs: [] } : readJsonAnswer(response.text)
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
