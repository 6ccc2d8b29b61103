import type pg from 'pg'
import type PgBoss from 'pg-boss'
import { drizzle } from 'drizzle-orm/node-postgres'
import type { RunRow } from '../../core/rows'
import type { RunJob } from '../../core/runs/run-queue'
import { RUN_JOBS_CHANNEL, RUN_QUEUE } from './channels'
import { queryFailure } from './errors'
import { runs } from './schema'

/** Start transactions committing at once at most, each on a connection of its own. */
export const START_COMMITS = 2

interface Pending {
  run: RunRow
  job: RunJob
  resolve: () => void
  reject: (error: unknown) => void
}

/**
 * Group commit of starts: a new run's row and its pg-boss job are inserted in one transaction,
 * which the starts arriving while earlier ones commit share (their rows and jobs inserted as one
 * statement each), and the NOTIFY waking the workers goes out when it commits. Each start
 * resolves once its transaction has committed. A batch that fails is tried again start by start,
 * so one bad start (an id already taken) fails alone.
 */
export function startSubmitter(pool: pg.Pool, boss: PgBoss, ready: Promise<unknown>) {
  const db = drizzle({ client: pool })
  let pending: Pending[] = []
  let committing = 0

  const commit = async (batch: readonly Pending[]) => {
    await ready
    const client = await pool.connect()
    try {
      await client.query('begin')
      const insert = db.insert(runs).values(batch.map(item => item.run)).toSQL()
      await client.query(insert.sql, insert.params)
      await boss.insert(batch.map(({ job }) => ({
        name: RUN_QUEUE, data: job, singletonKey: job.runId, retryLimit: 3, retryDelay: 1,
      })), { db: { executeSql: (text, values) => client.query(text, values) } })
      await client.query(`select pg_notify('${RUN_JOBS_CHANNEL}', ''); commit`)
    }
    catch (error) {
      await client.query('rollback').catch(() => {})
      throw error
    }
    finally {
      client.release()
    }
  }

  const flush = async () => {
    if (!pending.length || committing >= START_COMMITS) return
    const batch = pending
    pending = []
    committing++
    try {
      await commit(batch)
      for (const item of batch) item.resolve()
    }
    catch (error) {
      if (batch.length === 1) batch[0]!.reject(error)
      else {
        for (const item of batch) await commit([item]).then(item.resolve, item.reject)
      }
    }
    finally {
      committing--
      void flush()
    }
  }

  return (run: RunRow, job: RunJob): Promise<void> => new Promise<void>((resolve, reject) => {
    // A refusal names its SQLSTATE only, as the store's do (the statement would quote the run's input).
    pending.push({ run, job, resolve, reject: error => reject(queryFailure(error)) })
    void flush()
  })
}
