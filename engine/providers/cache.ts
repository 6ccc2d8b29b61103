import { createHash } from 'node:crypto'
import type { ChatRequest, ChatResponse, ResponseCache } from './types'

/** The cache key covers everything that changes the answer: provider, model, messages and parameters. */
export function cacheKey(provider: string, model: string, request: ChatRequest): string {
  const { system, messages, temperature, max_tokens, json_schema, response_format, cache_salt } = request
  return createHash('sha256')
    // A response format is keyed only when set, so the keys of earlier cached answers stay the same.
    .update(JSON.stringify([
      provider, model, system ?? null, messages, temperature ?? null, max_tokens ?? null, json_schema ?? null, cache_salt ?? null,
      ...(response_format ? [response_format] : []),
    ]))
    .digest('hex')
}

/** Cached by default only at temperature 0, where the answer is meant to be repeatable. */
export function shouldCache(request: ChatRequest): boolean {
  return request.cache ?? request.temperature === 0
}

export class MemoryResponseCache implements ResponseCache {
  private readonly entries = new Map<string, ChatResponse>()
  constructor(private readonly maxEntries = 1000) {}
  get(key: string) {
    return this.entries.get(key)
  }

  set(key: string, value: ChatResponse) {
    if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value!)
    this.entries.set(key, value)
  }
}
