import { randomUUID } from 'node:crypto'
import { and, asc, desc, eq, getTableColumns } from 'drizzle-orm'
import type { DatasetRepository } from '../core/store'
import type { DatasetRow, DatasetRunCaseRow, DatasetRunRow, DatasetWithCases } from '../core/rows'
import type { CatalogTables } from './catalog'
import { allRows, firstRow, inTransaction, rowsOf, runOf, type Perform, type Program } from './statement-program'

/**
 * What each store does its own way: a page of cases (each dialect walks the stored array in its
 * SQL) and a case's result (prepared, and on SQLite written with the run writes).
 */
type OwnWay = 'casesPage' | 'saveRunCase'

/** Datasets, their versions and runs over both dialects (see statement-program.ts), but for `OwnWay`. */
export function datasetRepository(t: CatalogTables, perform: Perform): Omit<DatasetRepository, OwnWay> {
  const { datasets, datasetVersions, datasetRuns, datasetRunCases } = t
  const { report: _report, ...summary } = getTableColumns(datasetRuns)
  return {
    list: () => perform(db => allRows<DatasetRow>(db.select().from(datasets).orderBy(desc(datasets.updatedAt)))),
    get: (id, version) => perform(function* (db) {
      const row = yield* firstRow<DatasetRow>(db.select().from(datasets).where(eq(datasets.id, id)))
      if (!row) return null
      const wanted = version ?? row.currentVersion
      const stored = yield* versionOf(t, db, id, wanted)
      return stored ? { ...row, version: wanted, cases: stored.cases } : null
    }),
    findByName: name => perform(db => firstRow<DatasetRow>(db.select().from(datasets).where(eq(datasets.name, name)))),
    versions: id => perform(db => allRows<{ version: number, caseCount: number, createdAt: number }>(db
      .select({ version: datasetVersions.version, caseCount: datasetVersions.caseCount, createdAt: datasetVersions.createdAt })
      .from(datasetVersions).where(eq(datasetVersions.datasetId, id)).orderBy(desc(datasetVersions.version)))),
    create: (name, cases) => perform(function* () {
      const now = Date.now()
      const row: DatasetRow = { id: randomUUID(), name, currentVersion: 1, caseCount: cases.length, createdAt: now, updatedAt: now }
      yield inTransaction(function* (tx) {
        yield runOf(tx.insert(datasets).values(row))
        yield runOf(tx.insert(datasetVersions).values({ datasetId: row.id, version: 1, cases, caseCount: cases.length, createdAt: now }))
      })
      return { ...row, version: 1, cases }
    }),
    update: (id, fields) => perform(function* () {
      return (yield inTransaction(tx => newVersion(t, tx, id, fields))) as DatasetWithCases | null
    }),
    delete: id => perform(function* (db) {
      const deleted: unknown[] = yield rowsOf(db.delete(datasets).where(eq(datasets.id, id)).returning({ id: datasets.id }))
      return deleted.length > 0
    }),
    createRun: run => perform(function* (db) {
      const row: DatasetRunRow = { id: randomUUID(), ...run, status: 'running', error: null, report: null, createdAt: Date.now(), finishedAt: null }
      yield runOf(db.insert(datasetRuns).values(row))
      return row
    }),
    getRun: id => perform(db => firstRow<DatasetRunRow>(db.select().from(datasetRuns).where(eq(datasetRuns.id, id)))),
    getRunSummary: id => perform(db => firstRow<Omit<DatasetRunRow, 'report'>>(db.select(summary).from(datasetRuns).where(eq(datasetRuns.id, id)))),
    runs: datasetId => perform(db => allRows<Omit<DatasetRunRow, 'report'>>(db.select(summary).from(datasetRuns)
      .where(eq(datasetRuns.datasetId, datasetId)).orderBy(desc(datasetRuns.createdAt)))),
    openRuns: () => perform(db => allRows<DatasetRunRow>(db.select().from(datasetRuns)
      .where(eq(datasetRuns.status, 'running')).orderBy(asc(datasetRuns.createdAt)))),
    updateRun: (id, patch) => perform(function* (db) {
      yield runOf(db.update(datasetRuns).set(patch).where(eq(datasetRuns.id, id)))
    }),
    runCases: datasetRunId => perform(db => allRows<DatasetRunCaseRow>(db.select().from(datasetRunCases)
      .where(eq(datasetRunCases.datasetRunId, datasetRunId)))),
  }
}

/** A new version of the dataset's cases (and its name), the dataset's row locked; renaming alone makes no version. Null when the dataset is not found. */
function* newVersion(t: CatalogTables, tx: any, id: string, fields: { name?: string, cases?: unknown[] }): Program<DatasetWithCases | null> {
  const { datasets, datasetVersions } = t
  const [row]: DatasetRow[] = yield rowsOf(t.forUpdate(tx.select().from(datasets).where(eq(datasets.id, id))))
  if (!row) return null
  const now = Date.now()
  if (!fields.cases) {
    yield runOf(tx.update(datasets).set({ name: fields.name ?? row.name, updatedAt: now }).where(eq(datasets.id, id)))
    const current = yield* versionOf(t, tx, id, row.currentVersion)
    return { ...row, name: fields.name ?? row.name, updatedAt: now, version: row.currentVersion, cases: current!.cases }
  }
  const version = row.currentVersion + 1
  yield runOf(tx.insert(datasetVersions).values({ datasetId: id, version, cases: fields.cases, caseCount: fields.cases.length, createdAt: now }))
  const updated = { name: fields.name ?? row.name, currentVersion: version, caseCount: fields.cases.length, updatedAt: now }
  yield runOf(tx.update(datasets).set(updated).where(eq(datasets.id, id)))
  return { ...row, ...updated, version, cases: fields.cases }
}

function versionOf(t: CatalogTables, db: any, id: string, version: number): Program<{ cases: unknown[] } | null> {
  return firstRow(db.select().from(t.datasetVersions).where(and(eq(t.datasetVersions.datasetId, id), eq(t.datasetVersions.version, version))))
}
