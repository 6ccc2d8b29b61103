import { drizzle } from 'drizzle-orm/node-postgres'
import type { Store } from '../../core/store'
import { openPostgres, type PgHandle } from './client'
import { pgExperiments, pgResponseCache, pgSettings, pgWorkflows } from './catalog'
import { pgDatasets } from './datasets'
import { withQueryFailures } from './errors'
import { pgLeases, pgRuns } from './runs'
import { oneAtATime, pruneStore } from '../retention'
import { pgOnline } from './online'
import { pgReview } from './review'

/** Held by the process pruning this database. */
const PRUNE_LOCK = 7_413_270_002

/**
 * The application's store in a PostgreSQL database (JUDGEFLOW_DATABASE_URL): the same repositories
 * and behaviour as the SQLite store. The migrations are applied as it opens; every call waits for
 * them, so a database that cannot be reached or migrated fails the first call with the reason.
 */
export type PostgresStore = Store & { handle: PgHandle }

export function createPostgresStore(url: string, options: { poolSize?: number } = {}): PostgresStore {
  const handle = openPostgres(url, options)
  const { db, ready } = handle
  return {
    handle,
    // A failed query fails with its SQLSTATE, never with the statement and parameters drizzle quotes.
    workflows: withQueryFailures(pgWorkflows(db, ready)),
    runs: withQueryFailures(pgRuns(db, handle.pool, ready)),
    leases: withQueryFailures(pgLeases(db, ready)),
    experiments: withQueryFailures(pgExperiments(db, ready)),
    settings: withQueryFailures(pgSettings(db, ready)),
    datasets: withQueryFailures(pgDatasets(db, ready)),
    cache: withQueryFailures(pgResponseCache(db, ready)),
    online: withQueryFailures(pgOnline(db, ready)),
    review: withQueryFailures(pgReview(db, ready)),
    retention: withQueryFailures({
      // One prune at a time in this process, and across processes on one database (an advisory lock): a busy one skips.
      prune: oneAtATime(async (policy) => {
        await ready
        const client = await handle.pool.connect()
        try {
          const { rows } = await client.query<{ locked: boolean }>('select pg_try_advisory_lock($1) as locked', [PRUNE_LOCK])
          if (!rows[0]?.locked) return { runs: 0, leaseOwners: 0, cacheEntries: 0, onlineSpans: 0, reviewLeases: 0 }
          // The prune's statements go through the connection that holds the lock: it needs no other.
          const own = drizzle({ client })
          try {
            return await pruneStore({
              rows: async query => (await own.execute(query)).rows as never[],
              transaction: statements => own.transaction(async (tx) => {
                const changed: number[] = []
                for (const statement of statements) changed.push((await tx.execute(statement)).rowCount ?? 0)
                return changed
              }),
            }, policy)
          }
          finally {
            await client.query('select pg_advisory_unlock($1)', [PRUNE_LOCK])
          }
        }
        finally {
          client.release()
        }
      }),
    }),
    close: () => handle.close(),
  }
}
