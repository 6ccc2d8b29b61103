import { and, eq, inArray, sql } from 'drizzle-orm'
import type { RunFinished } from '../../core/store'
import type { RunEventRow } from '../repositories/runs'
import type { PgDb } from './client'
import { BOSS_SCHEMA, RUN_QUEUE } from './channels'
import { storeEvent } from './runs'
import { runs } from './schema'

/** Why a withdrawal stopped short: nothing was changed. */
class NotWaiting extends Error {}

/**
 * Ends a run no worker has taken yet with `event` (a cancel): in one transaction, its job leaves
 * the queue — only while it waits (pg-boss's `created` or `retry`, no copy of it taken) — and the
 * run, still queued under the name of the process that queued the job (no lease takeover claimed
 * it), is marked ended with its last event, NOTIFYed as any other. A worker fetching the job at
 * that moment skips the locked row or finds it gone; one claiming the run after finds it ended.
 * Null, with nothing changed, when a worker has the job or a process holds the run.
 */
export function pgCancelQueued(db: PgDb, ready: Promise<void>) {
  const jobs = sql.raw(`${BOSS_SCHEMA}.job`)
  return async (runId: string, event: RunFinished): Promise<RunEventRow | null> => {
    await ready
    try {
      return await db.transaction(async (tx) => {
        const withdrawn = await tx.execute<{ from: string | null }>(sql`
          update ${jobs} set state = 'cancelled', completed_on = now()
          where name = ${RUN_QUEUE} and singleton_key = ${runId} and state < 'active'
            and not exists (select 1 from ${jobs} taken where taken.name = ${RUN_QUEUE} and taken.singleton_key = ${runId} and taken.state = 'active')
          returning data->>'from' as "from"`)
        const queuers = withdrawn.rows.map(row => row.from).filter((from): from is string => Boolean(from))
        if (!queuers.length) throw new NotWaiting()
        const [run] = await tx.select({ id: runs.id }).from(runs)
          .where(and(eq(runs.id, runId), eq(runs.status, 'queued'), inArray(runs.leaseOwner, queuers))).for('update')
        if (!run) throw new NotWaiting()
        const { result } = event
        await tx.update(runs).set({ status: result.status, error: result.error ?? null, finishedAt: Date.now(), durationMs: result.duration_ms ?? 0 })
          .where(eq(runs.id, runId))
        return storeEvent(tx, runId, event)
      })
    }
    catch (error) {
      if (error instanceof NotWaiting) return null
      throw error
    }
  }
}
