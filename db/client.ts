import { existsSync, mkdirSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import Database from 'better-sqlite3'
import { drizzle, type BetterSQLite3Database } from 'drizzle-orm/better-sqlite3'
import { migrate } from 'drizzle-orm/better-sqlite3/migrator'
import * as schema from './schema'
import { JudgeflowError } from '../engine/errors'
import { besideModule } from './beside-module'

/** The database, with its better-sqlite3 connection (`$client`) for the statements run directly (prepared.ts). */
export type Db = BetterSQLite3Database<typeof schema> & { $client: Database.Database }

export interface DbHandle {
  db: Db
  path: string
  /** `full` when every commit is synced to disk (JUDGEFLOW_DB_SYNCHRONOUS), as the group commit needs to know. */
  synchronous: 'normal' | 'full'
  close(): void
  /** SQLite's own check; `ok` when the file is sound. */
  integrityCheck(): string
}

export interface OpenOptions {
  /** `full` keeps every commit through a power cut too, at a cost per commit (JUDGEFLOW_DB_SYNCHRONOUS). */
  synchronous?: 'normal' | 'full'
  /** The migrations folder, when not beside the code (JUDGEFLOW_MIGRATIONS). */
  migrations?: string
}

/**
 * The migrations ship beside this module in the source tree and the compiled package, and beside
 * the server entry in a built app (copied there at build time); `override` (JUDGEFLOW_MIGRATIONS) comes first.
 */
export function findMigrationsFolder(override?: string): string {
  const candidates = [
    override,
    ...besideModule(import.meta.url, 'migrations'),
    process.argv[1] ? join(dirname(resolve(process.argv[1])), 'migrations') : undefined,
    resolve('db/migrations'),
  ].filter((c): c is string => Boolean(c))
  const found = candidates.find(c => existsSync(join(c, 'meta', '_journal.json')))
  if (!found) throw new JudgeflowError('INVALID_CONFIG', `the database migrations were not found (looked in ${candidates.join(', ')}); set JUDGEFLOW_MIGRATIONS`, { category: 'system' })
  return found
}

/** Opens (creating if needed) the SQLite database with WAL and foreign keys, and applies migrations. */
export function openDatabase(path: string, options: OpenOptions = {}): DbHandle {
  if (path !== ':memory:') mkdirSync(dirname(resolve(path)), { recursive: true })
  const sqlite = new Database(path)
  sqlite.pragma('journal_mode = WAL')
  // NORMAL keeps every commit through a process crash; FULL also through a power cut, at a cost per commit.
  sqlite.pragma(`synchronous = ${options.synchronous === 'full' ? 'FULL' : 'NORMAL'}`)
  sqlite.pragma('foreign_keys = ON')
  sqlite.pragma('busy_timeout = 5000')
  const db = drizzle({ client: sqlite, schema })
  migrate(db, { migrationsFolder: findMigrationsFolder(options.migrations) })
  return {
    db,
    path,
    synchronous: options.synchronous === 'full' ? 'full' : 'normal',
    close: () => sqlite.close(),
    integrityCheck: () => String(sqlite.pragma('integrity_check', { simple: true })),
  }
}
