import { and, eq, sql } from 'drizzle-orm'
import type { DatasetRepository } from '../../core/store'
import { datasetRepository } from '../datasets'
import { performOnPostgres } from '../statement-program'
import type { PgDb } from './client'
import { pgCatalogTables } from './catalog'
import { prepared } from '../prepared'
import { datasetRunCases, datasets, datasetVersions } from './schema'
import { parseOwnJson } from '../../engine/text/own-json'

/**
 * Datasets, their versions and runs on PostgreSQL: the implementation shared with SQLite
 * (db/datasets.ts), and this dialect's page of cases and case write.
 */
export function pgDatasets(db: PgDb, ready: Promise<void>): DatasetRepository {
  return {
    ...datasetRepository(pgCatalogTables, performOnPostgres(db, ready)),
    async casesPage(id, page) {
      await ready
      const [row] = await db.select().from(datasets).where(eq(datasets.id, id))
      if (!row) return null
      const version = page.version ?? row.currentVersion
      const [stored] = await db.select({ caseCount: datasetVersions.caseCount }).from(datasetVersions)
        .where(and(eq(datasetVersions.datasetId, id), eq(datasetVersions.version, version)))
      if (!stored) return null
      // PostgreSQL walks the stored array; only the page's cases, as their JSON text, come back.
      const { rows } = await db.execute<{ value: string }>(sql`
        select value from (
          select e.n, e.value::text as value, sum(length(e.value::text)) over (order by e.n) as upto
          from dataset_versions v cross join lateral json_array_elements(v.cases) with ordinality as e(value, n)
          where v.dataset_id = ${id} and v.version = ${version} and e.n > ${page.offset} and e.n <= ${page.offset + page.limit}
        ) p where n = ${page.offset + 1} or upto <= ${page.maxCharacters} order by n`)
      return { ...row, version, total: stored.caseCount, cases: rows.map(text => parseOwnJson(text.value)) }
    },
    async saveRunCase(row) {
      await ready
      // Twice per case of every dataset run: built and prepared once. A result of none is SQL NULL, as drizzle writes it.
      await prepared(db, 'pg save run case', () => {
        const at = <T>(name: string) => sql.placeholder(name) as unknown as T
        const excluded = (column: { name: string }) => sql.raw(`excluded."${column.name}"`)
        return db.insert(datasetRunCases)
          .values({
            datasetRunId: at('datasetRunId'), caseId: at('caseId'), repeat: at('repeat'), status: at('status'), runId: at('runId'),
            result: sql`${sql.placeholder('result')}::json`, updatedAt: at('updatedAt'),
          })
          .onConflictDoUpdate({
            target: [datasetRunCases.datasetRunId, datasetRunCases.caseId, datasetRunCases.repeat],
            set: {
              status: excluded(datasetRunCases.status), runId: excluded(datasetRunCases.runId),
              result: excluded(datasetRunCases.result), updatedAt: excluded(datasetRunCases.updatedAt),
            },
          })
          .prepare('judgeflow_save_run_case')
      }).execute({ ...row, result: row.result === null ? null : JSON.stringify(row.result), updatedAt: Date.now() })
    },
  }
}
