import { eq } from 'drizzle-orm'
import type { OnlineRepository } from '../../core/online-rows'
import { onlineRepository } from '../online'
import type { PgDb } from './client'
import { onlineDecisions, onlineRules, onlineSpans } from './schema'

/** Online scoring on PostgreSQL: the one repository (db/online.ts), each query after the migrations, the writes in a transaction. */
export function pgOnline(db: PgDb, ready: Promise<void>): OnlineRepository {
  return onlineRepository({
    db,
    tables: { onlineRules, onlineSpans, onlineDecisions },
    rows: async (query) => {
      await ready
      return query
    },
    write: async (build) => {
      await ready
      return db.transaction(async (tx) => {
        const changed: number[] = []
        for (const statement of build(tx)) changed.push((await statement).rowCount ?? 0)
        return changed
      })
    },
    // Not FOR UPDATE: a request's decisions reference the rule (FOR KEY SHARE), and ingestion never waits for a claim.
    lockRule: (tx, ruleId) => tx.select({ id: onlineRules.id }).from(onlineRules).where(eq(onlineRules.id, ruleId)).for('no key update'),
  })
}
