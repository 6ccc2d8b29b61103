import { eq } from 'drizzle-orm'
import type { ChatResponse, ResponseCache } from '../../engine/providers/types'
import type { Db } from '../client'
import { llmCache } from '../schema'

/** The LLM response cache, kept in SQLite so it survives restarts; a hit marks the entry used (the prune evicts the least recently used). */
export function createSqliteResponseCache(db: Db): ResponseCache {
  return {
    get(key) {
      const row = db.update(llmCache).set({ lastUsedAt: Date.now() }).where(eq(llmCache.key, key)).returning({ response: llmCache.response }).get()
      return row ? (row.response as unknown as ChatResponse) : undefined
    },
    set(key, value, meta) {
      const response = value as unknown as Record<string, unknown>
      const now = Date.now()
      db.insert(llmCache).values({ key, provider: meta.provider, model: meta.model, response, createdAt: now, lastUsedAt: now })
        .onConflictDoUpdate({ target: llmCache.key, set: { response, createdAt: now, lastUsedAt: now } }).run()
    },
  }
}
