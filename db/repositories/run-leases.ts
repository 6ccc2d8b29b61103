import { sql } from 'drizzle-orm'
import type { Db } from '../client'
import { leaseOwners } from '../schema'
import { prepared } from '../prepared'
import { unfinishedRunStatuses } from '../../engine/schema/workflow'
import type { Lease } from '../../core/rows'
export type { Lease, RunLease, Holder } from '../../core/rows'

/** The statuses of a run some process is executing or is about to execute (the engine's list). */
export const UNFINISHED_STATUSES: string[] = [...unfinishedRunStatuses]

/**
 * Holds `lease.owner`'s lease until `lease.expiresAt`: one row per process, whatever the number of
 * runs it holds. Prepared once (a heartbeat's one write); the other lease methods are in run-takeover.ts.
 */
export function renewLease(db: Db, lease: Lease): void {
  prepared(db, 'leases.renew', () => db.insert(leaseOwners).values({ owner: sql.placeholder('owner'), expiresAt: sql.placeholder('expiresAt') })
    .onConflictDoUpdate({ target: leaseOwners.owner, set: { expiresAt: sql.raw('excluded.expires_at') } }).prepare()).run({ ...lease })
}
