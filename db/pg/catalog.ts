import { and, eq, sql } from 'drizzle-orm'
import type { ResponseCache } from '../../engine/providers/types'
import type { ExperimentRepository, SettingsRepository, WorkflowRepository } from '../../core/store'
import { experimentRepository, responseCache, settingsRepository, type CatalogTables } from '../catalog'
import { performOnPostgres } from '../statement-program'
import { workflowRepository } from '../workflows'
import { prepared } from '../prepared'
import type { PgDb } from './client'
import { appSettings, datasetRunCases, datasetRuns, datasets, datasetVersions, experimentRounds, experiments, llmCache, workflows, workflowVersions } from './schema'

type Definition = Parameters<WorkflowRepository['create']>[0]

/** Workflows on PostgreSQL: the same implementation as on SQLite (db/workflows.ts) but for `get`. */
export function pgWorkflows(db: PgDb, ready: Promise<void>): WorkflowRepository {
  /** The workflow with the version asked for, or its current one (version null). */
  const prepareGet = () => db.select({ row: workflows, version: workflowVersions.version, definition: workflowVersions.definition }).from(workflows)
    .innerJoin(workflowVersions, and(
      eq(workflowVersions.workflowId, workflows.id),
      eq(workflowVersions.version, sql`coalesce(${sql.placeholder('version')}::integer, ${workflows.currentVersion})`),
    ))
    .where(eq(workflows.id, sql.placeholder('id')))
    .prepare('judgeflow_workflow')
  return workflowRepository(pgCatalogTables, performOnPostgres(db, ready), async (id, version) => {
    await ready
    // One round trip of a statement built and prepared once (each run's start reads its workflow).
    const [found] = await prepared(db, 'pg workflow', prepareGet).execute({ id, version: version ?? null })
    if (!found) return null
    const definition = found.definition as Definition
    return { ...found.row, name: definition.name, description: definition.description ?? null, version: found.version, definition }
  })
}

/**
 * Workflows, experiments, settings and the response cache on PostgreSQL: the tables and locks of the
 * implementation shared with SQLite (db/catalog.ts, db/workflows.ts).
 */
export const pgCatalogTables: CatalogTables = {
  workflows, workflowVersions, experiments, experimentRounds, appSettings, llmCache, datasets, datasetVersions, datasetRuns, datasetRunCases,
  forUpdate: query => query.for('update'),
  lockKey: (tx, key) => tx.execute(sql`select pg_advisory_xact_lock(hashtext(${key}))`),
}

export const pgExperiments = (db: PgDb, ready: Promise<void>): ExperimentRepository =>
  experimentRepository(pgCatalogTables, performOnPostgres(db, ready))
export const pgSettings = (db: PgDb, ready: Promise<void>): SettingsRepository => settingsRepository(pgCatalogTables, performOnPostgres(db, ready))
export const pgResponseCache = (db: PgDb, ready: Promise<void>): ResponseCache => responseCache(pgCatalogTables, performOnPostgres(db, ready))
