import pg from 'pg'
import type PgBoss from 'pg-boss'
import { getTableColumns } from 'drizzle-orm'
import { getTableConfig } from 'drizzle-orm/pg-core'
import type { RunRow } from '../../core/rows'
import type { RunJob } from '../../core/runs/run-queue'
import { bossQuery } from './boss-statements'
import { RUN_JOBS_CHANNEL, RUN_QUEUE } from './channels'
import { queryFailure } from './errors'
import { runs, workflows } from './schema'

/** Start transactions committing at once at most, each on a connection of its own. */
export const START_COMMITS = 2

/** The runs table's columns: the row's field and the column's name. */
const RUN_COLUMNS = Object.entries(getTableColumns(runs)).map(([field, column]) => ({ field, name: column.name }))

/**
 * New runs from one JSON array of records (`$1`), a record per run keyed by column name; the runs
 * whose ids are in `$2` only while their workflow version is the workflow's current one. Returns
 * the ids stored.
 */
const INSERT_RUNS = (() => {
  const columns = RUN_COLUMNS.map(c => `"${c.name}"`).join(', ')
  const id = (field: keyof RunRow) => `"${RUN_COLUMNS.find(c => c.field === field)!.name}"`
  return `insert into "runs" (${columns}) select ${columns} from json_populate_recordset(null::"runs", $1::json) as r`
    + ` where not (r.${id('id')} = any($2::text[])) or exists (select 1 from "${getTableConfig(workflows).name}" w`
    + ` where w."${workflows.id.name}" = r.${id('workflowId')} and w."${workflows.currentVersion.name}" = r.${id('workflowVersion')})`
    + ` returning ${id('id')} as id`
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
  /** Stored only while its workflow version is the current one. */
  ifCurrent: boolean
  /** Whether the run was stored (false: its version was no longer current). */
  resolve: (stored: boolean) => void
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

  /** Stores the batch's runs and their jobs in one transaction: the ids of the runs stored. */
  const commit = async (batch: readonly Pending[]): Promise<Set<string>> => {
    await ready
    const client = await pool.connect()
    try {
      await client.query('begin')
      const checked = batch.filter(item => item.ifCurrent).map(item => item.run.id)
      const { rows } = await client.query<{ id: string }>({
        name: 'judgeflow_start_runs', text: INSERT_RUNS, values: [JSON.stringify(batch.map(item => runRecord(item.run))), checked],
      })
      const stored = new Set(rows.map(row => row.id))
      const jobs = batch.filter(item => stored.has(item.run.id)).map(({ job }) => ({
        name: RUN_QUEUE, data: job, singletonKey: job.runId, retryLimit: 3, retryDelay: 1,
      }))
      if (jobs.length) await boss.insert(jobs, { db: { executeSql: (text, values) => client.query(bossQuery(text, values)) } })
      await client.query(jobs.length ? `select pg_notify('${RUN_JOBS_CHANNEL}', ''); commit` : 'commit')
      return stored
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
      const stored = await commit(batch)
      for (const item of batch) item.resolve(stored.has(item.run.id))
    }
    catch (error) {
      // Refused by the database, the transaction stored nothing: each start again alone. A lost
      // connection may have lost the answer to a commit: storing again could start a run twice.
      if (batch.length === 1 || !(error instanceof pg.DatabaseError)) {
        for (const item of batch) item.reject(error)
      }
      else {
        for (const item of batch) await commit([item]).then(stored => item.resolve(stored.has(item.run.id)), item.reject)
      }
    }
    finally {
      committing--
      void flush()
    }
  }

  return (run: RunRow, job: RunJob, options: { ifCurrent?: boolean } = {}): Promise<boolean> => new Promise<boolean>((resolve, reject) => {
    // A refusal names its SQLSTATE only, as the store's do (the statement would quote the run's input).
    pending.push({ run, job, ifCurrent: options.ifCurrent === true, resolve, reject: error => reject(queryFailure(error)) })
    void flush()
  })
}
