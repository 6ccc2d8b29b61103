import Database from 'better-sqlite3'
import pg from 'pg'
import { tempDbPath } from './app-server'
import { startPostgres, type TestPostgres } from './postgres'

/**
 * Where a server process keeps its data, for integration tests run on both stores with
 * `describe.each(serverStores)`: a SQLite file (the default), or a PostgreSQL database in a
 * throwaway cluster started on first use. Call `stopServerStores` after the file's tests.
 */
export interface ServerStore {
  name: 'SQLite' | 'PostgreSQL'
  /** A new, empty database: a SQLite file's path, or a PostgreSQL database's URL. */
  create(): Promise<string>
  /** The `startAppServer` options of a server on `location`, with `env` beside. */
  at(location: string, env?: Record<string, string>): { dbPath?: string, env: Record<string, string> }
  /** One SQL statement (`$1`, `$2`… for its parameters) on the database at `location`: its rows. */
  query(location: string, statement: string, params?: unknown[]): Promise<Array<Record<string, unknown>>>
}

let postgres: Promise<TestPostgres> | undefined

export const serverStores: ServerStore[] = [
  {
    name: 'SQLite',
    create: async () => tempDbPath(),
    at: (dbPath, env = {}) => ({ dbPath, env }),
    async query(dbPath, statement, params = []) {
      const db = new Database(dbPath)
      try {
        // In the order they stand: the statements here use $1, $2… in that order.
        const prepared = db.prepare(statement.replace(/\$\d+/g, '?'))
        return prepared.reader ? prepared.all(...params) as Array<Record<string, unknown>> : (prepared.run(...params), [])
      }
      finally {
        db.close()
      }
    },
  },
  {
    name: 'PostgreSQL',
    async create() {
      postgres ??= startPostgres()
      return (await postgres).database()
    },
    at: (url, env = {}) => ({ env: { ...env, JUDGEFLOW_DATABASE_URL: url } }),
    async query(url, statement, params = []) {
      const client = new pg.Client({ connectionString: url })
      await client.connect()
      try {
        return (await client.query(statement, params)).rows as Array<Record<string, unknown>>
      }
      finally {
        await client.end()
      }
    },
  },
]

export async function stopServerStores(): Promise<void> {
  const started = postgres
  postgres = undefined
  await (await started)?.stop()
}
