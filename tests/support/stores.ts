import type { Store } from '../../core'
import { createSqliteStore, openDatabase } from '../../db'
import { createPostgresStore } from '../../db/pg'
import { startPostgres, type TestPostgres } from './postgres'

/** How a test opens a new, empty store of one kind. */
export interface StoreFactory {
  name: string
  open(): Promise<Store>
}

let postgres: Promise<TestPostgres> | undefined

/**
 * The two stores, for `describe.each`: SQLite in memory, and PostgreSQL in a throwaway cluster
 * started on first use (one per test file) with a new database per store. Call `stopStores` after all.
 */
export const storeFactories: StoreFactory[] = [
  { name: 'SQLite', open: async () => createSqliteStore(openDatabase(':memory:')) },
  {
    name: 'PostgreSQL',
    async open() {
      postgres ??= startPostgres()
      return createPostgresStore(await (await postgres).database(), { poolSize: 4 })
    },
  },
]

export async function stopStores(): Promise<void> {
  const started = postgres
  postgres = undefined
  await (await started)?.stop()
}
