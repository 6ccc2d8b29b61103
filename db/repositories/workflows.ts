import { and, desc, eq, sql } from 'drizzle-orm'
import { JudgeflowError } from '../../engine/errors'
import type { Db } from '../client'
import { workflows, workflowVersions } from '../schema'
import { prepared } from '../prepared'
import { getSetting, setSetting } from './settings'
import type { WorkflowRow, WorkflowWithDefinition } from '../../core/rows'
export type { WorkflowRow, WorkflowWithDefinition } from '../../core/rows'

interface Definition { name: string, description?: string, [key: string]: unknown }

export function listWorkflows(db: Db): WorkflowRow[] {
  return db.select().from(workflows).orderBy(desc(workflows.updatedAt)).all()
}

/** The workflow at its current version, or at `version` when given; null when not found. */
export function getWorkflow(db: Db, id: string, version?: number): WorkflowWithDefinition | null {
  const row = prepared(db, 'workflows.get', () => db.select().from(workflows).where(eq(workflows.id, sql.placeholder('id'))).prepare()).get({ id })
  if (!row) return null
  const v = prepared(db, 'workflows.version', () => db.select().from(workflowVersions)
    .where(and(eq(workflowVersions.workflowId, sql.placeholder('id')), eq(workflowVersions.version, sql.placeholder('version')))).prepare())
    .get({ id, version: version ?? row.currentVersion })
  if (!v) return null
  const definition = v.definition as Definition
  return { ...row, name: definition.name, description: definition.description ?? null, version: v.version, definition }
}

export function listWorkflowVersions(db: Db, id: string) {
  return db.select({ version: workflowVersions.version, createdAt: workflowVersions.createdAt })
    .from(workflowVersions).where(eq(workflowVersions.workflowId, id)).orderBy(desc(workflowVersions.version)).all()
}

export function createWorkflow(db: Db, definition: Definition, now = Date.now()): WorkflowWithDefinition {
  const id = crypto.randomUUID()
  return db.transaction((tx) => {
    tx.insert(workflows)
      .values({ id, name: definition.name, description: definition.description ?? null, currentVersion: 1, createdAt: now, updatedAt: now }).run()
    tx.insert(workflowVersions).values({ workflowId: id, version: 1, definition, createdAt: now }).run()
    return { id, name: definition.name, description: definition.description ?? null, currentVersion: 1, createdAt: now, updatedAt: now, version: 1, definition }
  })
}

/**
 * Saves a new version; earlier versions stay for the runs that used them. With `baseVersions`,
 * the save applies only while the current version is one of them (the version the change was made
 * on): otherwise it throws VERSION_CONFLICT with the current version, and nothing is written.
 */
export function updateWorkflow(
  db: Db, id: string, definition: Definition, options: { now?: number, baseVersions?: readonly number[] } = {},
): WorkflowWithDefinition | null {
  const { now = Date.now(), baseVersions } = options
  return db.transaction((tx) => {
    const row = tx.select().from(workflows).where(eq(workflows.id, id)).get()
    if (!row) return null
    if (baseVersions && !baseVersions.includes(row.currentVersion)) throw versionConflict(row.currentVersion, baseVersions)
    const version = row.currentVersion + 1
    tx.insert(workflowVersions).values({ workflowId: id, version, definition, createdAt: now }).run()
    tx.update(workflows)
      .set({ name: definition.name, description: definition.description ?? null, currentVersion: version, updatedAt: now })
      .where(eq(workflows.id, id)).run()
    return { ...row, name: definition.name, description: definition.description ?? null, currentVersion: version, updatedAt: now, version, definition }
  })
}

export function versionConflict(current: number, baseVersions: readonly number[]): JudgeflowError {
  const what = baseVersions.length
    ? `This workflow was changed after version ${baseVersions.join(' or ')}: it is now at version ${current}.`
    : `This change names no version that matches the current one, ${current}.`
  return new JudgeflowError('VERSION_CONFLICT', `${what} Load version ${current} and make the change again, or send base_version ${current} to save over it.`, { details: { current_version: current } })
}

/** Deletes the workflow with its versions and runs. */
export function deleteWorkflow(db: Db, id: string): boolean {
  return db.delete(workflows).where(eq(workflows.id, id)).run().changes > 0
}

/** Creates the workflows unless the setting `marker` is set, and sets it, in one transaction; the number created. */
export function seedWorkflows(db: Db, marker: string, definitions: Definition[]): number {
  if (getSetting(db, marker)) return 0
  return db.transaction(() => {
    for (const definition of definitions) createWorkflow(db, definition)
    setSetting(db, marker, true)
    return definitions.length
  })
}
