import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Store } from '../../core'
import { createSqliteStore, openDatabase } from '../../db'
import { createPostgresStore } from '../../db/pg'
import { startPostgres, type TestPostgres } from './postgres'

/** How a test opens a new, empty store of one kind. */
export interface StoreFactory {
  name: string
  open(): Promise<Store>
  /** Where a store outlives its process: a new SQLite file, or a new PostgreSQL database. */
  durable(): Promise<string>
  /** The store at a place `durable` gave, as a process starting there opens it. */
  openAt(location: string): Store
}

let postgres: Promise<TestPostgres> | undefined

/**
 * The two stores, for `describe.each`: SQLite in memory, and PostgreSQL in a throwaway cluster
 * started on first use (one per test file) with a new database per store. Call `stopStores` after all.
 */
export const storeFactories: StoreFactory[] = [
  {
    name: 'SQLite',
    open: async () => createSqliteStore(openDatabase(':memory:')),
    durable: async () => join(mkdtempSync(join(tmpdir(), 'judgeflow-store-')), 'judgeflow.db'),
    openAt: path => createSqliteStore(openDatabase(path)),
  },
  {
    name: 'PostgreSQL',
    open: async () => openPostgres(await newDatabase()),
    durable: newDatabase,
    openAt: openPostgres,
  },
]

async function newDatabase(): Promise<string> {
  postgres ??= startPostgres()
  return (await postgres).database()
}

function openPostgres(url: string): Store {
  return createPostgresStore(url, { poolSize: 4 })
}

export async function stopStores(): Promise<void> {
  const started = postgres
  postgres = undefined
  await (await started)?.stop()
}
