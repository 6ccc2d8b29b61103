import {
  appSettings, datasetRunCases, datasetRuns, datasets, datasetVersions, experimentRounds, experiments, leaseOwners, llmCache, runs, stepRuns,
  workflows, workflowVersions, reviewQueues, reviewItems, reviewLabels, reviewLeases,
} from './schema'
import type { CatalogTables } from './catalog'
import type { LeaseTables } from './run-takeover'
import type { ReviewTables } from './review'

/*
 * The SQLite tables of the store methods written once for both dialects (statement-program.ts).
 * A transaction takes the write lock at BEGIN, so a read before a write needs no lock of its own.
 */

export const sqliteCatalogTables: CatalogTables = {
  workflows, workflowVersions, experiments, experimentRounds, appSettings, llmCache, datasets, datasetVersions, datasetRuns, datasetRunCases,
  forUpdate: query => query,
}

export const sqliteLeaseTables: LeaseTables = { runs, stepRuns, leaseOwners, lockRun: query => query, lockHolder: query => query }

export const sqliteReviewTables: ReviewTables = { reviewQueues, reviewItems, reviewLabels, reviewLeases, forUpdate: query => query }
