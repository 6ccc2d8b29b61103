import type { ResponseCache } from '../../engine/providers/types'
import type { Db } from '../client'
import { responseCache } from '../catalog'
import { performOnSqlite } from '../statement-program'
import { sqliteCatalogTables } from '../sqlite-tables'

/** The LLM response cache in SQLite (db/catalog.ts). */
export function createSqliteResponseCache(db: Db): ResponseCache {
  return responseCache(sqliteCatalogTables, performOnSqlite(db))
}
