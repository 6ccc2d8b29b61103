import { and, asc, eq, gt, inArray, isNull, or, sql } from 'drizzle-orm'
import type { Db } from '../client'
import { runEvents, runs, stepRuns } from '../schema'
import { direct, prepared } from '../prepared'
import { newRunRow, type RunRow, type StepRunRow, type RunEventRow, type NewRun } from '../../core/rows'
export type { RunRow, StepRunRow, RunEventRow, NewRun, RunSummaryRow } from '../../core/rows'

export function createRun(db: Db, run: NewRun, now = Date.now()): RunRow {
  const row = newRunRow(run, now)
  const values: Record<string, unknown> = { ...row }
  prepared(db, 'runs.insert', () => db.insert(runs).values(placeholders(Object.keys(row)) as unknown as typeof row).prepare()).run(values)
  return row
}

export function getRun(db: Db, id: string): RunRow | null {
  return prepared(db, 'runs.get', () => db.select().from(runs).where(eq(runs.id, sql.placeholder('id'))).prepare()).get({ id }) ?? null
}

export function listStepRuns(db: Db, runId: string): StepRunRow[] {
  return prepared(db, 'step-runs.list', () => db.select().from(stepRuns).where(eq(stepRuns.runId, sql.placeholder('runId'))).orderBy(asc(stepRuns.id)).prepare()).all({ runId })
}

/** Marks the run running under `owner`, unless another process holds it (it was taken over meanwhile). */
export function markRunStarted(db: Db, id: string, owner: string, now = Date.now()): void {
  prepared(db, 'runs.started', () => db.update(runs)
    .set({ status: 'running', ...placeholders(['leaseOwner', 'startedAt']) })
    .where(and(eq(runs.id, sql.placeholder('id')), or(isNull(runs.leaseOwner), eq(runs.leaseOwner, sql.placeholder('leaseOwner'))))).prepare())
    .run({ id, leaseOwner: owner, startedAt: now })
}

/** Whether `owner` holds the run now: the check a fenced write makes in its own transaction. */
export function holdsRun(db: Db, id: string, owner: string): boolean {
  return direct(db, 'runs.holds', () => db.select({ id: runs.id }).from(runs)
    .where(and(eq(runs.id, sql.placeholder('id')), eq(runs.leaseOwner, sql.placeholder('owner'))))).get({ id, owner }) !== undefined
}

export function finishRun(
  db: Db, id: string, end: { status: string, verdict?: string | null, output?: unknown, error?: unknown, durationMs?: number }, now = Date.now(),
): void {
  prepared(db, 'runs.finish', () => db.update(runs)
    .set(placeholders(['status', 'verdict', 'output', 'error', 'finishedAt', 'durationMs']))
    .where(eq(runs.id, sql.placeholder('id'))).prepare())
    .run({
      id, status: end.status, verdict: end.verdict ?? null, output: end.output ?? null, error: end.error ?? null,
      finishedAt: now, durationMs: end.durationMs ?? null,
    })
}

/** The statuses of the given runs, in one query. */
export function runStatuses(db: Db, ids: string[]): Map<string, string> {
  if (!ids.length) return new Map()
  if (ids.length === 1) {
    // The common case (a run followed to its end, asked after each of its events): prepared once.
    const row = direct(db, 'runs.status', () => db.select({ status: runs.status }).from(runs).where(eq(runs.id, sql.placeholder('id')))).get({ id: ids[0] })
    return row ? new Map([[ids[0]!, row.status as string]]) : new Map()
  }
  const rows = db.select({ id: runs.id, status: runs.status }).from(runs).where(inArray(runs.id, ids)).all()
  return new Map(rows.map(row => [row.id, row.status]))
}

export function listEventsAfter(db: Db, runId: string, afterId = 0, limit = 1000): RunEventRow[] {
  return db.select().from(runEvents).where(and(eq(runEvents.runId, runId), gt(runEvents.id, afterId))).orderBy(asc(runEvents.id)).limit(limit).all()
}

function placeholders(names: string[]): Record<string, ReturnType<typeof sql.placeholder>> {
  return Object.fromEntries(names.map(name => [name, sql.placeholder(name)]))
}
