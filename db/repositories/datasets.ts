import { and, eq, sql } from 'drizzle-orm'
import type { Db } from '../client'
import { datasetRunCases, datasets, datasetVersions } from '../schema'
import { prepared } from '../prepared'
import type { DatasetCasesPage, DatasetRunCaseRow } from '../../core/rows'
import type { DatasetPageRequest } from '../../core/store'
import { parseOwnJson } from '../../engine/text/own-json'
export type { DatasetRow, DatasetRunRow, DatasetRunCaseRow, DatasetWithCases } from '../../core/rows'

/* The dataset methods SQLite does its own way; the others are the same on both stores (db/datasets.ts). */

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
