import type { DatasetRow, DatasetRunRow } from '../../db'

/** A dataset as lists show it: no cases. */
export function presentDatasetSummary(row: DatasetRow) {
  return { id: row.id, name: row.name, current_version: row.currentVersion, case_count: row.caseCount, created_at: row.createdAt, updated_at: row.updatedAt }
}

/** A dataset run without its report (lists, and the run while it goes on). */
export function presentDatasetRun(row: Omit<DatasetRunRow, 'report'>) {
  return {
    id: row.id, dataset_id: row.datasetId, dataset_version: row.datasetVersion, target: row.target, options: row.options,
    status: row.status, error: row.error, created_at: row.createdAt, finished_at: row.finishedAt,
  }
}
