import { and, asc, eq, exists, inArray, isNull, max, notInArray, or, sql, type SQL } from 'drizzle-orm'
import type { Db } from '../client'
import { leaseOwners, runs, stepRuns } from '../schema'
import { prepared } from '../prepared'
import { unfinishedRunStatuses } from '../../engine/schema/workflow'
import { committedStepStatuses, type Lease, type RunLease, type Holder } from '../../core/rows'
export type { Lease, RunLease, Holder } from '../../core/rows'

/** The statuses of a run some process is executing or is about to execute (the engine's list). */
export const UNFINISHED_STATUSES: string[] = [...unfinishedRunStatuses]

/** Holds `lease.owner`'s lease until `lease.expiresAt`: one row per process, whatever the number of runs it holds. */
export function renewLease(db: Db, lease: Lease): void {
  prepared(db, 'leases.renew', () => db.insert(leaseOwners).values({ owner: sql.placeholder('owner'), expiresAt: sql.placeholder('expiresAt') })
    .onConflictDoUpdate({ target: leaseOwners.owner, set: { expiresAt: sql.raw('excluded.expires_at') } }).prepare()).run({ ...lease })
}

/** Lets go of the runs `owner` still holds: another process may take them over at once. */
export function releaseLeases(db: Db, owner: string, now: number): void {
  db.update(leaseOwners).set({ expiresAt: now }).where(eq(leaseOwners.owner, owner)).run()
}

const leaseColumns = { id: runs.id, status: runs.status, leaseOwner: runs.leaseOwner, leaseExpiresAt: leaseOwners.expiresAt }

/**
 * The leases of the other processes that hold unfinished runs (read at every heartbeat of a process
 * watching for orphans: one index probe per process that ever started, never a scan of the runs).
 */
export function listOtherHolders(db: Db, owner: string): Holder[] {
  return db.select({ leaseOwner: leaseOwners.owner, leaseExpiresAt: leaseOwners.expiresAt }).from(leaseOwners)
    .where(and(sql`${leaseOwners.owner} <> ${owner}`, exists(db.select({ one: sql`1` }).from(runs)
      .where(and(eq(runs.leaseOwner, leaseOwners.owner), inArray(runs.status, UNFINISHED_STATUSES)))))).all()
}

/**
 * The unfinished runs held by no process or by one of `holders`, oldest first (the runs of live
 * processes are not read at all: the index on the holder finds the others).
 */
export function listUnfinishedLeasesOf(db: Db, holders: string[]): RunLease[] {
  const of = holders.length ? or(isNull(runs.leaseOwner), inArray(runs.leaseOwner, holders)) : isNull(runs.leaseOwner)
  return db.select(leaseColumns).from(runs).leftJoin(leaseOwners, eq(leaseOwners.owner, runs.leaseOwner))
    .where(and(of, inArray(runs.status, UNFINISHED_STATUSES))).orderBy(asc(runs.createdAt)).all()
}

export function getRunLease(db: Db, id: string): RunLease | null {
  return db.select(leaseColumns).from(runs).leftJoin(leaseOwners, eq(leaseOwners.owner, runs.leaseOwner)).where(eq(runs.id, id)).get() ?? null
}

/**
 * Takes an unfinished run for `lease.owner` when it is free: held by no process, or by one whose
 * lease expired at `now` or that is `goneOwner` (a holder known to be gone). One conditional
 * statement, so of two processes trying at once only one gets it, and a holder that renewed its
 * lease meanwhile keeps the run.
 */
export function claimRun(db: Db, id: string, lease: Lease, now: number, goneOwner?: string | null): boolean {
  const live = db.select({ owner: leaseOwners.owner }).from(leaseOwners).where(sql`${leaseOwners.expiresAt} > ${now}`)
  const free: SQL[] = [isNull(runs.leaseOwner), notInArray(runs.leaseOwner, live)]
  if (goneOwner) free.push(eq(runs.leaseOwner, goneOwner))
  return db.update(runs).set({ leaseOwner: lease.owner })
    .where(and(eq(runs.id, id), inArray(runs.status, UNFINISHED_STATUSES), or(...free))).run().changes === 1
}

/** When the run's latest committed step finished (a replayed step keeps its time, a new one does not). */
export function lastCommittedStepAt(db: Db, runId: string): number | null {
  const row = db.select({ at: max(stepRuns.finishedAt) }).from(stepRuns)
    .where(and(eq(stepRuns.runId, runId), inArray(stepRuns.status, committedStepStatuses))).get()
  return row?.at ?? null
}

export function recordResume(db: Db, id: string, resumesWithoutProgress: number, lastStepAt: number | null): void {
  db.update(runs).set({ resumesWithoutProgress, lastStepAtResume: lastStepAt }).where(eq(runs.id, id)).run()
}
