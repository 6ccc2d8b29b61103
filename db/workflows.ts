import { randomUUID } from 'node:crypto'
import { desc, eq } from 'drizzle-orm'
import { JudgeflowError } from '../engine/errors'
import type { WorkflowRepository } from '../core/store'
import type { WorkflowRow, WorkflowWithDefinition } from '../core/rows'
import { settingOf, storeSetting, type CatalogTables } from './catalog'
import { inTransaction, rowsOf, runOf, type Perform, type Program } from './statement-program'

type Definition = Parameters<WorkflowRepository['create']>[0]

/**
 * Workflows over both dialects (see statement-program.ts), but for `get`: each store reads a
 * workflow with its version in its own prepared statement (each run's start reads one).
 */
export function workflowRepository(t: CatalogTables, perform: Perform, get: WorkflowRepository['get']): WorkflowRepository {
  const { workflows } = t
  return {
    list: () => perform(function* (db) {
      return (yield rowsOf(db.select().from(workflows).orderBy(desc(workflows.updatedAt)))) as WorkflowRow[]
    }),
    get,
    create: definition => perform(function* () {
      return (yield inTransaction(tx => newWorkflow(t, tx, definition))) as WorkflowWithDefinition
    }),
    update: (id, definition, options = {}) => perform(function* () {
      return (yield inTransaction(tx => newVersion(t, tx, id, definition, options.baseVersions))) as WorkflowWithDefinition | null
    }),
    delete: id => perform(function* (db) {
      const deleted: unknown[] = yield rowsOf(db.delete(workflows).where(eq(workflows.id, id)).returning({ id: workflows.id }))
      return deleted.length > 0
    }),
    seed: (marker, definitions) => perform(function* () {
      return (yield inTransaction(tx => seed(t, tx, marker, definitions))) as number
    }),
  }
}

function* newWorkflow(t: CatalogTables, tx: any, definition: Definition): Program<WorkflowWithDefinition> {
  const now = Date.now()
  const row = { id: randomUUID(), name: definition.name, description: definition.description ?? null, currentVersion: 1, createdAt: now, updatedAt: now }
  yield runOf(tx.insert(t.workflows).values(row))
  yield runOf(tx.insert(t.workflowVersions).values({ workflowId: row.id, version: 1, definition, createdAt: now }))
  return { ...row, version: 1, definition }
}

/**
 * Saves a new version; earlier versions stay for the runs that used them. With `baseVersions`,
 * the save applies only while the current version is one of them (the version the change was made
 * on): otherwise it throws VERSION_CONFLICT with the current version, and nothing is written.
 */
function* newVersion(t: CatalogTables, tx: any, id: string, definition: Definition, baseVersions?: readonly number[]): Program<WorkflowWithDefinition | null> {
  const [row]: WorkflowRow[] = yield rowsOf(t.forUpdate(tx.select().from(t.workflows).where(eq(t.workflows.id, id))))
  if (!row) return null
  if (baseVersions && !baseVersions.includes(row.currentVersion)) throw versionConflict(row.currentVersion, baseVersions)
  const now = Date.now()
  const version = row.currentVersion + 1
  yield runOf(tx.insert(t.workflowVersions).values({ workflowId: id, version, definition, createdAt: now }))
  yield runOf(tx.update(t.workflows).set({ name: definition.name, description: definition.description ?? null, currentVersion: version, updatedAt: now })
    .where(eq(t.workflows.id, id)))
  return { ...row, name: definition.name, description: definition.description ?? null, currentVersion: version, updatedAt: now, version, definition }
}

/** Creates the workflows unless the setting `marker` is set, and sets it, in one transaction; the number created. */
function* seed(t: CatalogTables, tx: any, marker: string, definitions: Definition[]): Program<number> {
  // Processes starting together seed once: the first holds the marker's lock, the others then see it set.
  if (t.lockKey) yield runOf(t.lockKey(tx, marker))
  if (yield* settingOf(t, tx, marker)) return 0
  for (const definition of definitions) yield* newWorkflow(t, tx, definition)
  yield* storeSetting(t, tx, marker, true)
  return definitions.length
}

export function versionConflict(current: number, baseVersions: readonly number[]): JudgeflowError {
  const what = baseVersions.length
    ? `This workflow was changed after version ${baseVersions.join(' or ')}: it is now at version ${current}.`
    : `This change names no version that matches the current one, ${current}.`
  return new JudgeflowError('VERSION_CONFLICT', `${what} Load version ${current} and make the change again, or send base_version ${current} to save over it.`, { details: { current_version: current } })
}
