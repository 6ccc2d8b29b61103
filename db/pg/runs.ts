import type pg from 'pg'
import { and, asc, eq, gt, inArray, isNull, or, sql } from 'drizzle-orm'
import type { LeaseRepository, RunRepository } from '../../core/store'
import { newRunRow } from '../../core/rows'
import { eventRows, journalOf } from '../run-recorder'
import { readStoredValue, viewRun, type ViewDialect } from '../bounded-view'
import { leaseClaims, type LeaseTables } from '../run-takeover'
import { runLists } from '../run-lists'
import { performOnPostgres } from '../statement-program'
import type { PgDb } from './client'
import { RUN_EVENTS_CHANNEL } from './channels'
import { eventWrite } from './event-writes'
import { eventBatcher } from './event-batch'
import { prepared } from '../prepared'
import { leaseOwners, runEvents, runs, stepRuns } from './schema'

type Tx = Parameters<Parameters<PgDb['transaction']>[0]>[0]
type RunEvent = Parameters<typeof eventRows>[1]

const STEP_COLUMNS = ['status', 'input', 'output', 'branch', 'error', 'reason', 'rerun', 'usage', 'cached', 'pinned', 'startedAt', 'finishedAt', 'durationMs'] as const

/**
 * Stores an event (and its step) inside a transaction of the caller's, NOTIFYed at commit as
 * `writeOne` does; a run's own writes go through `eventBatcher` (one statement, shared with other runs' writes under load).
 */
export async function storeEvent(tx: Tx | PgDb, runId: string, event: RunEvent) {
  const { step, row } = eventRows(runId, event)
  if (step) {
    await tx.insert(stepRuns).values(step).onConflictDoUpdate({
      target: [stepRuns.runId, stepRuns.nodeId, stepRuns.attempt],
      set: Object.fromEntries(STEP_COLUMNS.map(column => [column, sql.raw(`excluded.${stepRuns[column].name}`)])),
    })
  }
  const [stored] = await tx.insert(runEvents).values(row).returning({ id: runEvents.id })
  await tx.execute(sql`select pg_notify(${RUN_EVENTS_CHANNEL}, ${`${runId} ${stored!.id} ${row.type}`})`)
  return { id: stored!.id, ...row }
}

/**
 * Orphaned runs one pass of `claimOrphans` claims at most, the oldest first; the next heartbeat's
 * pass takes the next ones. Each claim is a round trip, and a web process's lease lapses while
 * thousands of its runs wait in the queue: read and claimed all at once, they would hold a worker's
 * heartbeat (and its memory) for as long as the queue is long.
 */
export const ORPHANS_PER_PASS = 100

/**
 * Runs on PostgreSQL: the same rows as on SQLite. Each write is one statement (an event with its
 * step, a run's end with its last event: `event-writes.ts`), committed before the promise settles. A run's writes
 * go one after another: an event's id comes from a sequence when it is inserted, so two writes of
 * one run committing in the other order could let a client resuming from Last-Event-ID skip one.
 */
export function pgRuns(db: PgDb, pool: pg.Pool, ready: Promise<void>): RunRepository {
  const dialect: ViewDialect = { db, runs, stepRuns, text: column => sql`${column}::text`, rows: query => query }
  const writeEvents = eventBatcher(pool)
  const writing = new Map<string, Promise<unknown>>()
  const inOrder = <T>(runId: string, write: () => Promise<T>): Promise<T> => {
    const previous = writing.get(runId) ?? ready
    const next = previous.then(write, write)
    const settled = next.catch(() => {})
    writing.set(runId, settled)
    void settled.then(() => { if (writing.get(runId) === settled) writing.delete(runId) })
    return next
  }
  return {
    async create(run) {
      await ready
      const row = newRunRow(run)
      await db.insert(runs).values(row)
      return row
    },
    async get(id) {
      await ready
      const [row] = await prepared(db, 'pg run', () => db.select().from(runs).where(eq(runs.id, sql.placeholder('id'))).prepare('judgeflow_run'))
        .execute({ id })
      return row ?? null
    },
    ...runLists({ runs }, performOnPostgres(db, ready)),
    async steps(runId) {
      await ready
      return prepared(db, 'pg steps', () => db.select().from(stepRuns).where(eq(stepRuns.runId, sql.placeholder('runId'))).orderBy(asc(stepRuns.id))
        .prepare('judgeflow_steps')).execute({ runId })
    },
    async view(id, limits) {
      await ready
      return viewRun(dialect, id, limits)
    },
    async value(runId, ref) {
      await ready
      return readStoredValue(dialect, runId, ref)
    },
    async eventsAfter(runId, afterId = 0, limit = 1000) {
      await ready
      return prepared(db, 'pg events after', () => db.select().from(runEvents)
        .where(and(eq(runEvents.runId, sql.placeholder('runId')), gt(runEvents.id, sql.placeholder('afterId'))))
        .orderBy(asc(runEvents.id)).limit(sql.placeholder('limit')).prepare('judgeflow_events_after'))
        .execute({ runId, afterId, limit })
    },
    async statuses(ids) {
      if (!ids.length) return new Map()
      await ready
      const rows = await db.select({ id: runs.id, status: runs.status }).from(runs).where(inArray(runs.id, ids))
      return new Map(rows.map(row => [row.id, row.status]))
    },
    // In order with the run's events: a quick run's end must not be overwritten by its start.
    markStarted: (id, owner) => inOrder(id, async () => {
      await db.update(runs).set({ status: 'running', leaseOwner: owner, startedAt: Date.now() })
        .where(and(eq(runs.id, id), or(isNull(runs.leaseOwner), eq(runs.leaseOwner, owner))))
    }),
    write: (runId, events, holder) => inOrder(runId, () => writeEvents(events.map(event => eventWrite(runId, event, event.type === 'run.finished' ? event.result : undefined, holder)))),
    async journal(runId) {
      await ready
      return journalOf(await db.select().from(stepRuns).where(eq(stepRuns.runId, runId)).orderBy(asc(stepRuns.id)))
    },
  }
}

/** The leases' tables on PostgreSQL, and the locks a claim takes (see LeaseTables). */
export const pgLeaseTables: LeaseTables = {
  runs, stepRuns, leaseOwners, orphansPerPass: ORPHANS_PER_PASS,
  lockRun: query => query.for('update', { skipLocked: true }),
  lockHolder: query => query.for('share'),
}

/** Leases on PostgreSQL: one row per process, and the same claims as on SQLite (run-takeover.ts). */
export function pgLeases(db: PgDb, ready: Promise<void>): LeaseRepository {
  const claims = leaseClaims(pgLeaseTables, performOnPostgres(db, ready))
  return {
    ...claims,
    async renew(lease) {
      await ready
      await db.insert(leaseOwners).values(lease).onConflictDoUpdate({ target: leaseOwners.owner, set: { expiresAt: lease.expiresAt } })
    },
    async claimQueued(runId, options) {
      await ready
      // The usual job, its run still queued under the process that queued it: taken and marked
      // started in one statement. The run is found by its id alone: written as a plain condition,
      // the status and owner are also the keys of an index (runs_lease_owner), which a table not
      // yet analyzed (a new database in its first minute) has the planner prefer, reading every run
      // the owner queued to find one (10 ms with 40,000 queued). `is true` keeps them out of it.
      if (options.from !== undefined) {
        const [run] = await prepared(db, 'pg claim queued', () => db.update(runs)
          .set({ leaseOwner: sql.placeholder('owner') as unknown as string, status: 'running', startedAt: sql.placeholder('at') as unknown as number })
          .where(and(eq(runs.id, sql.placeholder('id')), sql`(${runs.status} = 'queued' and ${runs.leaseOwner} = ${sql.placeholder('from')}) is true`)).returning()
          .prepare('judgeflow_claim_queued'))
          .execute({ id: runId, from: options.from, owner: options.lease.owner, at: Date.now() })
        if (run) return { run, started: true }
      }
      return claims.claimQueued(runId, options)
    },
  }
}
