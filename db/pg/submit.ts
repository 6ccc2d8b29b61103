import pg from 'pg'
import type PgBoss from 'pg-boss'
import { getTableColumns } from 'drizzle-orm'
import type { RunRow } from '../../core/rows'
import type { RunJob } from '../../core/runs/run-queue'
import { RUN_JOBS_CHANNEL, RUN_QUEUE } from './channels'
import { queryFailure } from './errors'
import { runs } from './schema'

/** Start transactions committing at once at most, each on a connection of its own. */
export const START_COMMITS = 2

/** The runs table's columns: the row's field and the column's name. */
const RUN_COLUMNS = Object.entries(getTableColumns(runs)).map(([field, column]) => ({ field, name: column.name }))

/** New runs from one JSON array of records (`$1`), a record per run keyed by column name. */
const INSERT_RUNS = (() => {
  const columns = RUN_COLUMNS.map(c => `"${c.name}"`).join(', ')
  return `insert into "runs" (${columns}) select ${columns} from json_populate_recordset(null::"runs", $1::json)`
})()

/** A run's row keyed by column name; JSON columns hold the value itself (JSON null is SQL NULL there). */
function runRecord(run: RunRow): Record<string, unknown> {
  const record: Record<string, unknown> = {}
  for (const { field, name } of RUN_COLUMNS) record[name] = run[field as keyof RunRow] ?? null
  return record
}

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
 * resolves once its transaction has committed. A batch the database refuses is tried again start
 * by start, so one bad start (an id already taken) fails alone.
 */
export function startSubmitter(pool: pg.Pool, boss: PgBoss, ready: Promise<unknown>) {
  let pending: Pending[] = []
  let committing = 0

  const commit = async (batch: readonly Pending[]) => {
    await ready
    const client = await pool.connect()
    try {
      await client.query('begin')
      await client.query({ name: 'judgeflow_start_runs', text: INSERT_RUNS, values: [JSON.stringify(batch.map(item => runRecord(item.run)))] })
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
      // Refused by the database, the transaction stored nothing: each start again alone. A lost
      // connection may have lost the answer to a commit: storing again could start a run twice.
      if (batch.length === 1 || !(error instanceof pg.DatabaseError)) {
        for (const item of batch) item.reject(error)
      }
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
