import type { Store } from '../../core/store'
import { openPostgres, type PgHandle } from './client'
import { pgExperiments, pgResponseCache, pgSettings, pgWorkflows } from './catalog'
import { pgDatasets } from './datasets'
import { pgLeases, pgRuns } from './runs'
import { pruneStore } from '../retention'

/**
 * The application's store in a PostgreSQL database (JUDGEFLOW_DATABASE_URL): the same repositories
 * and behaviour as the SQLite store. The migrations are applied as it opens; every call waits for
 * them, so a database that cannot be reached or migrated fails the first call with the reason.
 */
export function createPostgresStore(url: string, options: { poolSize?: number } = {}): Store & { handle: PgHandle } {
  const handle = openPostgres(url, options)
  const { db, ready } = handle
  return {
    handle,
    workflows: pgWorkflows(db, ready),
    runs: pgRuns(db, ready),
    leases: pgLeases(db, ready),
    experiments: pgExperiments(db, ready),
    settings: pgSettings(db, ready),
    datasets: pgDatasets(db, ready),
    cache: pgResponseCache(db, ready),
    retention: {
      async prune(policy) {
        await ready
        return pruneStore({
          rows: async query => (await db.execute(query)).rows as never[],
          transaction: statements => db.transaction(async (tx) => {
            const changed: number[] = []
            for (const statement of statements) changed.push((await tx.execute(statement)).rowCount ?? 0)
            return changed
          }),
        }, policy)
      },
    },
    close: () => handle.close(),
  }
}
