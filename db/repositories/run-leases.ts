import { and, asc, eq, inArray, isNull, lte, max, ne, or, type SQL } from 'drizzle-orm'
import type { Db } from '../client'
import { runs, stepRuns } from '../schema'

/** The statuses of a run some process is executing or is about to execute. */
export const UNFINISHED_STATUSES = ['queued', 'running']

export interface Lease {
  owner: string
  expiresAt: number
}

export interface RunLease {
  id: string
  status: string
  leaseOwner: string | null
  leaseExpiresAt: number | null
}

/** Extends the lease of every unfinished run `owner` holds, in one statement; returns their ids. */
export function renewLeases(db: Db, lease: Lease): string[] {
  return db.update(runs).set({ leaseExpiresAt: lease.expiresAt })
    .where(and(eq(runs.leaseOwner, lease.owner), inArray(runs.status, UNFINISHED_STATUSES)))
    .returning({ id: runs.id }).all().map(row => row.id)
}

/** Lets go of the runs `owner` still holds: another process may take them over at once. */
export function releaseLeases(db: Db, owner: string, now: number): void {
  db.update(runs).set({ leaseExpiresAt: now })
    .where(and(eq(runs.leaseOwner, owner), inArray(runs.status, UNFINISHED_STATUSES))).run()
}

/**
 * The leases of the unfinished runs that `owner` does not hold, oldest run first (small columns
 * only: this is read at every heartbeat).
 */
export function listOthersUnfinishedLeases(db: Db, owner: string): RunLease[] {
  return db.select({ id: runs.id, status: runs.status, leaseOwner: runs.leaseOwner, leaseExpiresAt: runs.leaseExpiresAt })
    .from(runs).where(and(inArray(runs.status, UNFINISHED_STATUSES), or(isNull(runs.leaseOwner), ne(runs.leaseOwner, owner))))
    .orderBy(asc(runs.createdAt)).all()
}

export function getRunLease(db: Db, id: string): RunLease | null {
  return db.select({ id: runs.id, status: runs.status, leaseOwner: runs.leaseOwner, leaseExpiresAt: runs.leaseExpiresAt })
    .from(runs).where(eq(runs.id, id)).get() ?? null
}

/**
 * Takes the lease of an unfinished run when it is free: never taken, expired at `now`, or held by
 * `goneOwner` (a holder known to be gone). One conditional statement, so of two processes trying
 * at once only one gets it.
 */
export function claimRun(db: Db, id: string, lease: Lease, now: number, goneOwner?: string | null): boolean {
  const free: SQL[] = [isNull(runs.leaseOwner), isNull(runs.leaseExpiresAt), lte(runs.leaseExpiresAt, now)]
  if (goneOwner) free.push(eq(runs.leaseOwner, goneOwner))
  return db.update(runs).set({ leaseOwner: lease.owner, leaseExpiresAt: lease.expiresAt })
    .where(and(eq(runs.id, id), inArray(runs.status, UNFINISHED_STATUSES), or(...free))).run().changes === 1
}

/** When the run's latest committed step finished (a replayed step keeps its time, a new one does not). */
export function lastCommittedStepAt(db: Db, runId: string): number | null {
  const row = db.select({ at: max(stepRuns.finishedAt) }).from(stepRuns)
    .where(and(eq(stepRuns.runId, runId), inArray(stepRuns.status, ['succeeded', 'failed', 'skipped']))).get()
  return row?.at ?? null
}

export function recordResume(db: Db, id: string, resumesWithoutProgress: number, lastStepAt: number | null): void {
  db.update(runs).set({ resumesWithoutProgress, lastStepAtResume: lastStepAt }).where(eq(runs.id, id)).run()
}
