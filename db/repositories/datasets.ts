import { and, asc, desc, eq, getTableColumns, inArray, sql } from 'drizzle-orm'
import { randomUUID } from 'node:crypto'
import type { Db } from '../client'
import { datasetRunCases, datasetRuns, datasets, datasetVersions } from '../schema'
import { prepared } from '../prepared'
import type { DatasetCasesPage, DatasetRow, DatasetRunRow, DatasetRunCaseRow, DatasetWithCases } from '../../core/rows'
import type { DatasetPageRequest } from '../../core/store'
import { parseOwnJson } from '../../engine/text/own-json'
export type { DatasetRow, DatasetRunRow, DatasetRunCaseRow, DatasetWithCases } from '../../core/rows'

export function listDatasets(db: Db): DatasetRow[] {
  return db.select().from(datasets).orderBy(desc(datasets.updatedAt)).all()
}

/** The dataset with the cases of its current version, or of `version`; null when either is not found. */
export function getDataset(db: Db, id: string, version?: number): DatasetWithCases | null {
  const row = db.select().from(datasets).where(eq(datasets.id, id)).get()
  if (!row) return null
  const wanted = version ?? row.currentVersion
  const stored = db.select().from(datasetVersions).where(and(eq(datasetVersions.datasetId, id), eq(datasetVersions.version, wanted))).get()
  return stored ? { ...row, version: wanted, cases: stored.cases } : null
}

/**
 * One page of a version's cases (`DatasetRepository.casesPage`): SQLite walks the stored array
 * (`json_each`, in the array's order) and the cases of the page come over one at a time, each as
 * its JSON text, until the page holds `maxCharacters`; the version's case count is its column.
 */
export function getDatasetCasesPage(db: Db, id: string, page: DatasetPageRequest): DatasetCasesPage | null {
  const row = db.select().from(datasets).where(eq(datasets.id, id)).get()
  if (!row) return null
  const version = page.version ?? row.currentVersion
  const stored = db.select({ caseCount: datasetVersions.caseCount }).from(datasetVersions)
    .where(and(eq(datasetVersions.datasetId, id), eq(datasetVersions.version, version))).get()
  if (!stored) return null
  const texts = db.$client.prepare<[string, number, number, number], { value: string }>(
    'select e.value from dataset_versions v, json_each(v.cases) e where v.dataset_id = ? and v.version = ? and e.key >= ? and e.key < ?',
  ).iterate(id, version, page.offset, page.offset + page.limit)
  const cases: unknown[] = []
  let characters = 0
  for (const { value } of texts) {
    // Leaving the loop ends the statement: the cases past the page are never read.
    if (cases.length && characters + value.length > page.maxCharacters) break
    characters += value.length
    cases.push(parseOwnJson(value))
  }
  return { ...row, version, total: stored.caseCount, cases }
}

export function findDatasetByName(db: Db, name: string): DatasetRow | null {
  return db.select().from(datasets).where(eq(datasets.name, name)).get() ?? null
}

export function listDatasetVersions(db: Db, id: string): Array<{ version: number, caseCount: number, createdAt: number }> {
  return db.select({ version: datasetVersions.version, caseCount: datasetVersions.caseCount, createdAt: datasetVersions.createdAt })
    .from(datasetVersions).where(eq(datasetVersions.datasetId, id)).orderBy(desc(datasetVersions.version)).all()
}

/** A new dataset at version 1, in one transaction. */
export function createDataset(db: Db, name: string, cases: unknown[]): DatasetWithCases {
  const now = Date.now()
  const row: DatasetRow = { id: randomUUID(), name, currentVersion: 1, caseCount: cases.length, createdAt: now, updatedAt: now }
  db.transaction((tx) => {
    tx.insert(datasets).values(row).run()
    tx.insert(datasetVersions).values({ datasetId: row.id, version: 1, cases, caseCount: cases.length, createdAt: now }).run()
  })
  return { ...row, version: 1, cases }
}

/** A new version of the dataset's cases (and its name); null when the dataset is not found. */
export function updateDataset(db: Db, id: string, fields: { name?: string, cases?: unknown[] }): DatasetWithCases | null {
  return db.transaction((tx) => {
    const row = tx.select().from(datasets).where(eq(datasets.id, id)).get()
    if (!row) return null
    const now = Date.now()
    if (!fields.cases) {
      tx.update(datasets).set({ name: fields.name ?? row.name, updatedAt: now }).where(eq(datasets.id, id)).run()
      const current = tx.select().from(datasetVersions).where(and(eq(datasetVersions.datasetId, id), eq(datasetVersions.version, row.currentVersion))).get()!
      return { ...row, name: fields.name ?? row.name, updatedAt: now, version: row.currentVersion, cases: current.cases }
    }
    const version = row.currentVersion + 1
    tx.insert(datasetVersions).values({ datasetId: id, version, cases: fields.cases, caseCount: fields.cases.length, createdAt: now }).run()
    const updated = { name: fields.name ?? row.name, currentVersion: version, caseCount: fields.cases.length, updatedAt: now }
    tx.update(datasets).set(updated).where(eq(datasets.id, id)).run()
    return { ...row, ...updated, version, cases: fields.cases }
  })
}

export function deleteDataset(db: Db, id: string): boolean {
  return db.delete(datasets).where(eq(datasets.id, id)).run().changes > 0
}

export function createDatasetRun(db: Db, run: Pick<DatasetRunRow, 'datasetId' | 'datasetVersion' | 'target' | 'options'>): DatasetRunRow {
  const row: DatasetRunRow = { id: randomUUID(), ...run, status: 'running', error: null, report: null, createdAt: Date.now(), finishedAt: null }
  db.insert(datasetRuns).values(row).run()
  return row
}

export function getDatasetRun(db: Db, id: string): DatasetRunRow | null {
  return db.select().from(datasetRuns).where(eq(datasetRuns.id, id)).get() ?? null
}

export function getDatasetRunSummary(db: Db, id: string): Omit<DatasetRunRow, 'report'> | null {
  const { report: _report, ...columns } = getTableColumns(datasetRuns)
  return db.select(columns).from(datasetRuns).where(eq(datasetRuns.id, id)).get() ?? null
}

export function listDatasetRuns(db: Db, datasetId: string): Array<Omit<DatasetRunRow, 'report'>> {
  const { report: _report, ...columns } = datasetRuns
  return db.select(columns as Omit<typeof datasetRuns._.columns, 'report'>).from(datasetRuns)
    .where(eq(datasetRuns.datasetId, datasetId)).orderBy(desc(datasetRuns.createdAt)).all() as Array<Omit<DatasetRunRow, 'report'>>
}

/** Dataset runs still going on (after a restart: to be resumed). */
export function listOpenDatasetRuns(db: Db): DatasetRunRow[] {
  return db.select().from(datasetRuns).where(inArray(datasetRuns.status, ['running'])).orderBy(asc(datasetRuns.createdAt)).all()
}

export function updateDatasetRun(db: Db, id: string, patch: Partial<Pick<DatasetRunRow, 'status' | 'error' | 'report' | 'finishedAt'>>): void {
  db.update(datasetRuns).set(patch).where(eq(datasetRuns.id, id)).run()
}

export function listDatasetRunCases(db: Db, datasetRunId: string): DatasetRunCaseRow[] {
  return db.select().from(datasetRunCases).where(eq(datasetRunCases.datasetRunId, datasetRunId)).all()
}

/** Records a case's run as under way (before the run starts) or its result (when it ended): twice per case, so prepared once. */
export function saveDatasetRunCase(db: Db, row: Omit<DatasetRunCaseRow, 'updatedAt'>): void {
  prepared(db, 'dataset-run-cases.save', () => db.insert(datasetRunCases).values({
    datasetRunId: sql.placeholder('datasetRunId'), caseId: sql.placeholder('caseId'), repeat: sql.placeholder('repeat'),
    status: sql.placeholder('status'), runId: sql.placeholder('runId'), result: sql.placeholder('result'), updatedAt: sql.placeholder('updatedAt'),
  }).onConflictDoUpdate({
    target: [datasetRunCases.datasetRunId, datasetRunCases.caseId, datasetRunCases.repeat],
    set: { status: sql`excluded.status`, runId: sql`excluded.run_id`, result: sql`excluded.result`, updatedAt: sql`excluded.updated_at` },
  }).prepare()).run({ ...row, updatedAt: Date.now() })
}
