import { eq } from 'drizzle-orm'
import type { ChatResponse, ResponseCache } from '../../engine/providers/types'
import type { Db } from '../client'
import { llmCache } from '../schema'

/** The LLM response cache, kept in SQLite so it survives restarts. */
export function createSqliteResponseCache(db: Db): ResponseCache {
  return {
    get(key) {
      const row = db.select({ response: llmCache.response }).from(llmCache).where(eq(llmCache.key, key)).get()
      return row ? (row.response as unknown as ChatResponse) : undefined
    },
    set(key, value, meta) {
      const response = value as unknown as Record<string, unknown>
      db.insert(llmCache).values({ key, provider: meta.provider, model: meta.model, response, createdAt: Date.now() })
        .onConflictDoUpdate({ target: llmCache.key, set: { response, createdAt: Date.now() } }).run()
    },
  }
}
