import { existsSync, readFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import pg from 'pg'
import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres'
import { migrate } from 'drizzle-orm/node-postgres/migrator'
import * as schema from './schema'
import { JudgeflowError } from '../../engine/errors'
import { besideModule } from '../beside-module'

export type PgDb = NodePgDatabase<typeof schema>

export interface PgHandle {
  db: PgDb
  pool: pg.Pool
  /** Settles once the migrations are applied; every query of the store waits for it. */
  ready: Promise<void>
  close(): Promise<void>
}

/** Any number of processes may start at once against one database: one applies the migrations at a time. */
const MIGRATION_LOCK = 7_413_270_001

/**
 * The PostgreSQL migrations ship beside this module in the source tree and beside the server entry
 * (`pg-migrations`) in a built app.
 */
export function findPgMigrationsFolder(): string {
  const candidates = [
    fileURLToPath(new URL('./migrations', import.meta.url)),
    ...besideModule(import.meta.url, 'pg-migrations'),
    process.argv[1] ? join(dirname(resolve(process.argv[1])), 'pg-migrations') : undefined,
    resolve('db/pg/migrations'),
  ].filter((c): c is string => Boolean(c))
  // In a built server this module's own folder is the server's, where the SQLite migrations are: read the journal's dialect.
  const found = candidates.find(c => existsSync(join(c, 'meta', '_journal.json')) && readFileSync(join(c, 'meta', '_journal.json'), 'utf8').includes('"postgresql"'))
  if (!found) throw new JudgeflowError('INVALID_CONFIG', `the PostgreSQL migrations were not found (looked in ${candidates.join(', ')})`, { category: 'system' })
  return found
}

/**
 * Connects a pool to the database at `url` (JUDGEFLOW_DATABASE_URL) and applies the migrations
 * in the background: `ready` says when they are done, or why they failed.
 */
export function openPostgres(url: string, options: { poolSize?: number } = {}): PgHandle {
  const pool = new pg.Pool({ connectionString: url, max: options.poolSize ?? 10 })
  // An idle connection the server closed must not take the process down: the pool opens another.
  pool.on('error', error => console.error(`judgeflow: a PostgreSQL connection failed: ${error.message}`))
  const db = drizzle({ client: pool, schema })
  const ready = applyMigrations(pool)
  ready.catch(() => {})
  return { db, pool, ready, close: () => pool.end() }
}

async function applyMigrations(pool: pg.Pool): Promise<void> {
  let client: pg.PoolClient
  try {
    client = await pool.connect()
  }
  catch (error) {
    throw new JudgeflowError('INVALID_CONFIG', `could not connect to the PostgreSQL database of JUDGEFLOW_DATABASE_URL: ${(error as Error).message}`, { category: 'system', cause: error })
  }
  try {
    await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK])
    await migrate(drizzle({ client, schema }), { migrationsFolder: findPgMigrationsFolder() })
  }
  finally {
    await client.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => {})
    client.release()
  }
}
