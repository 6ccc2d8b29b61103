import type { createPgRunQueue, createPostgresStore } from '../db/pg'
import { JudgeflowError } from '../engine/errors'

/** The PostgreSQL side's constructors, once its code is loaded (see main/postgres.ts). */
export interface Postgres {
  createPostgresStore: typeof createPostgresStore
  createPgRunQueue: typeof createPgRunQueue
}

let postgres: Postgres | undefined

export function usePostgres(modules: Postgres): void {
  postgres = modules
}

export function loadedPostgres(): Postgres {
  if (!postgres) throw new JudgeflowError('INTERNAL', 'the PostgreSQL store was asked for before its code was loaded (await loadPostgres() first)', { category: 'system' })
  return postgres
}
