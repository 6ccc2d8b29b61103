/**
 * The composition root: opens the database the configuration names and hands it to the
 * application layer (core/), which knows stores only by their contract (core/store.ts). The
 * server, the CLI and the library start judgeflow from here; nothing else imports both layers.
 */
import { createJudgeflow, DEFAULT_DB_PATH, type Judgeflow, type JudgeflowConfig, type JudgeflowOptions, type Store } from '../core'
import { createSqliteStore, openDatabase } from '../db'
import type { PgRunQueueOptions } from '../db/pg'
import { loadedPostgres, usePostgres } from './postgres-slot'

export { usePostgres }

/**
 * The PostgreSQL side's code takes a tenth of a second to load (pg, pg-boss): a process on SQLite
 * (every CLI command but `worker`, the library) never loads it. A process that may open PostgreSQL
 * loads it first: `await loadPostgres()`, or `usePostgres(postgres)` with `postgres` imported from
 * main/postgres.ts (the server, whose bundle keeps no import for its side effects alone).
 */
export async function loadPostgres(): Promise<void> {
  usePostgres((await import('./postgres')).postgres)
}

/** The PostgreSQL store when JUDGEFLOW_DATABASE_URL is set, else the SQLite file (JUDGEFLOW_DB). */
export function openStore(config: JudgeflowConfig): Store {
  if (config.db.url) return loadedPostgres().createPostgresStore(config.db.url)
  return createSqliteStore(openDatabase(config.db.path ?? DEFAULT_DB_PATH, config.db))
}

/**
 * One judgeflow on the configuration's database: unless a store is given, the PostgreSQL database
 * at `config.db.url` with its pg-boss run queue (runs execute on the worker processes), else the
 * SQLite database at `config.db.path` (runs execute in this process). `queueOptions.runEvents`:
 * false for a process that follows no run executing elsewhere (a worker).
 */
export function openJudgeflow(config: JudgeflowConfig, options: Partial<JudgeflowOptions> = {}, queueOptions: Pick<PgRunQueueOptions, 'runEvents'> = {}): Judgeflow {
  if (options.store || !config.db.url) return createJudgeflow(config, { ...options, store: options.store ?? openStore(config) })
  const { createPostgresStore, createPgRunQueue } = loadedPostgres()
  const store = createPostgresStore(config.db.url)
  // A start's transaction writes the runs table: it waits for the store's migrations.
  const queue = options.queue ?? createPgRunQueue(config.db.url, { ...queueOptions, store })
  return createJudgeflow(config, { ...options, store, queue })
}
