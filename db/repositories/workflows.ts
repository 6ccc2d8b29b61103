import { and, desc, eq, sql } from 'drizzle-orm'
import type { Db } from '../client'
import { workflows, workflowVersions } from '../schema'
import { prepared } from '../prepared'
import type { WorkflowWithDefinition } from '../../core/rows'
export type { WorkflowRow, WorkflowWithDefinition } from '../../core/rows'

interface Definition { name: string, description?: string, [key: string]: unknown }

/**
 * The workflow at its current version, or at `version` when given; null when not found. Read in
 * statements prepared once (each run's start reads its workflow); the other workflow methods are
 * the same on both stores (db/workflows.ts).
 */
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
