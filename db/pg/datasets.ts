import { randomUUID } from 'node:crypto'
import { and, asc, desc, eq, getTableColumns, sql } from 'drizzle-orm'
import type { DatasetRepository } from '../../core/store'
import type { DatasetRow, DatasetRunRow } from '../repositories/datasets'
import type { PgDb } from './client'
import { prepared } from '../prepared'
import { datasetRunCases, datasetRuns, datasets, datasetVersions } from './schema'
import { parseOwnJson } from '../../engine/text/own-json'

type Tx = Parameters<Parameters<PgDb['transaction']>[0]>[0]

/** Datasets, their versions and runs on PostgreSQL: the SQLite repository's behaviour, query for query. */
export function pgDatasets(db: PgDb, ready: Promise<void>): DatasetRepository {
  const versionOf = async (tx: Tx | PgDb, id: string, version: number) =>
    (await tx.select().from(datasetVersions).where(and(eq(datasetVersions.datasetId, id), eq(datasetVersions.version, version))))[0]
  return {
    async list() {
      await ready
      return db.select().from(datasets).orderBy(desc(datasets.updatedAt))
    },
    async get(id, version) {
      await ready
      const [row] = await db.select().from(datasets).where(eq(datasets.id, id))
      if (!row) return null
      const wanted = version ?? row.currentVersion
      const stored = await versionOf(db, id, wanted)
      return stored ? { ...row, version: wanted, cases: stored.cases } : null
    },
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
    async findByName(name) {
      await ready
      return (await db.select().from(datasets).where(eq(datasets.name, name)))[0] ?? null
    },
    async versions(id) {
      await ready
      return db.select({ version: datasetVersions.version, caseCount: datasetVersions.caseCount, createdAt: datasetVersions.createdAt })
        .from(datasetVersions).where(eq(datasetVersions.datasetId, id)).orderBy(desc(datasetVersions.version))
    },
    async create(name, cases) {
      await ready
      const now = Date.now()
      const row: DatasetRow = { id: randomUUID(), name, currentVersion: 1, caseCount: cases.length, createdAt: now, updatedAt: now }
      await db.transaction(async (tx) => {
        await tx.insert(datasets).values(row)
        await tx.insert(datasetVersions).values({ datasetId: row.id, version: 1, cases, caseCount: cases.length, createdAt: now })
      })
      return { ...row, version: 1, cases }
    },
    async update(id, fields) {
      await ready
      return db.transaction(async (tx) => {
        const [row] = await tx.select().from(datasets).where(eq(datasets.id, id)).for('update')
        if (!row) return null
        const now = Date.now()
        if (!fields.cases) {
          await tx.update(datasets).set({ name: fields.name ?? row.name, updatedAt: now }).where(eq(datasets.id, id))
          const current = await versionOf(tx, id, row.currentVersion)
          return { ...row, name: fields.name ?? row.name, updatedAt: now, version: row.currentVersion, cases: current!.cases }
        }
        const version = row.currentVersion + 1
        await tx.insert(datasetVersions).values({ datasetId: id, version, cases: fields.cases, caseCount: fields.cases.length, createdAt: now })
        const updated = { name: fields.name ?? row.name, currentVersion: version, caseCount: fields.cases.length, updatedAt: now }
        await tx.update(datasets).set(updated).where(eq(datasets.id, id))
        return { ...row, ...updated, version, cases: fields.cases }
      })
    },
    async delete(id) {
      await ready
      return (await db.delete(datasets).where(eq(datasets.id, id)).returning({ id: datasets.id })).length > 0
    },
    async createRun(run) {
      await ready
      const row: DatasetRunRow = { id: randomUUID(), ...run, status: 'running', error: null, report: null, createdAt: Date.now(), finishedAt: null }
      await db.insert(datasetRuns).values(row)
      return row
    },
    async getRun(id) {
      await ready
      return (await db.select().from(datasetRuns).where(eq(datasetRuns.id, id)))[0] ?? null
    },
    async getRunSummary(id) {
      await ready
      const { report: _report, ...columns } = getTableColumns(datasetRuns)
      return (await db.select(columns).from(datasetRuns).where(eq(datasetRuns.id, id)))[0] ?? null
    },
    async runs(datasetId) {
      await ready
      const { report: _report, ...columns } = getTableColumns(datasetRuns)
      return db.select(columns).from(datasetRuns).where(eq(datasetRuns.datasetId, datasetId)).orderBy(desc(datasetRuns.createdAt))
    },
    async openRuns() {
      await ready
      return db.select().from(datasetRuns).where(eq(datasetRuns.status, 'running')).orderBy(asc(datasetRuns.createdAt))
    },
    async updateRun(id, patch) {
      await ready
      await db.update(datasetRuns).set(patch).where(eq(datasetRuns.id, id))
    },
    async runCases(datasetRunId) {
      await ready
      return db.select().from(datasetRunCases).where(eq(datasetRunCases.datasetRunId, datasetRunId))
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
