import type { Db } from './client'

const cache = new WeakMap<Db, Map<string, unknown>>()

/**
 * A statement prepared once per database and reused: building and preparing a query costs
 * more than running it, and the hot paths (run and event writes) run thousands per second.
 */
export function prepared<T>(db: Db, key: string, build: () => T): T {
  let statements = cache.get(db)
  if (!statements) cache.set(db, statements = new Map())
  let statement = statements.get(key) as T | undefined
  if (!statement) statements.set(key, statement = build())
  return statement
}
