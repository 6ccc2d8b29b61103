import { count, getTableColumns, gt, sql } from 'drizzle-orm'
import type { SQLiteTable } from 'drizzle-orm/sqlite-core'
import type { PgTable } from 'drizzle-orm/pg-core'
import { JudgeflowError } from '../engine/errors'
import type { Db } from './client'
import type { PgDb } from './pg/client'
import * as pg from './pg/schema'
import * as lite from './schema'

/** Every table, parents before children (the foreign keys hold at each insert): the same names in both schemas. */
const TABLES = [
  'workflows', 'workflowVersions', 'runs', 'leaseOwners', 'stepRuns', 'runEvents', 'llmCache', 'appSettings',
  'experiments', 'experimentRounds', 'datasets', 'datasetVersions', 'datasetRuns', 'datasetRunCases', 'onlineRules', 'onlineSpans', 'onlineDecisions',
  'reviewQueues', 'reviewItems', 'reviewLabels', 'reviewLeases',
] as const satisfies ReadonlyArray<keyof typeof lite & keyof typeof pg>

/** The tables whose ids come from a sequence on PostgreSQL: it must go on after the ids copied. */
const SEQUENCED = ['step_runs', 'run_events']

export const DEFAULT_COPY_BATCH = 500

export interface CopiedTable {
  /** The table's SQL name. */
  table: string
  sqlite: number
  postgres: number
}

const sqlName = (table: SQLiteTable | PgTable) => (table as unknown as Record<symbol, string>)[Symbol.for('drizzle:Name')]!

/**
 * Copies a SQLite database into an empty PostgreSQL one (`judgeflow db copy`): table by table in
 * batches, every column as it is (ids, version numbers, times), in one PostgreSQL transaction that
 * commits only when every table's count matches the SQLite one, read in one SQLite snapshot (the
 * server may keep running). Refuses a PostgreSQL database that has a row in any table.
 */
export async function copySqliteToPostgres(source: Db, target: PgDb, options: { batchSize?: number } = {}): Promise<CopiedTable[]> {
  const batch = options.batchSize ?? DEFAULT_COPY_BATCH
  for (const name of TABLES) {
    const [row] = await target.select({ n: count() }).from(pg[name])
    if (row && row.n > 0) {
      throw new JudgeflowError('INVALID_INPUT', `The PostgreSQL database is not empty: table "${sqlName(pg[name])}" has ${row.n} row${row.n === 1 ? '' : 's'}. Copy into a new, empty database.`)
    }
  }
  source.run(sql`begin`)
  try {
    return await target.transaction(async (tx) => {
      const copied: CopiedTable[] = []
      for (const name of TABLES) {
        const from = lite[name] as SQLiteTable
        const rowid = sql<number>`rowid`
        let last = 0
        for (;;) {
          const rows = source.select({ ...getTableColumns(from), rowid }).from(from)
            .where(gt(rowid, last)).orderBy(rowid).limit(batch).all() as Array<Record<string, unknown>>
          if (rows.length === 0) break
          last = rows.at(-1)!.rowid as number
          await tx.insert(pg[name]).values(rows.map(({ rowid: _, ...row }) => row) as never)
          if (rows.length < batch) break
        }
        const [read] = source.select({ n: count() }).from(from).all()
        const [written] = await tx.select({ n: count() }).from(pg[name])
        copied.push({ table: sqlName(from), sqlite: read!.n, postgres: written!.n })
      }
      for (const table of SEQUENCED) {
        await tx.execute(sql`select setval(pg_get_serial_sequence(${table}, 'id'), coalesce(max(id), 0) + 1, false) from ${sql.identifier(table)}`)
      }
      const wrong = copied.find(c => c.sqlite !== c.postgres)
      if (wrong) throw new JudgeflowError('INTERNAL', `The copy of table "${wrong.table}" has ${wrong.postgres} rows on PostgreSQL but ${wrong.sqlite} on SQLite; nothing was copied.`)
      return copied
    })
  }
  finally {
    source.run(sql`rollback`)
  }
}
