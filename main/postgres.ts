/**
 * The PostgreSQL store and run queue (pg, pg-boss), loaded only by a process whose configuration
 * may name a PostgreSQL database, which hands them to openJudgeflow with usePostgres.
 */
import { createPgRunQueue, createPostgresStore } from '../db/pg'
import type { Postgres } from './postgres-slot'

export const postgres: Postgres = { createPgRunQueue, createPostgresStore }
