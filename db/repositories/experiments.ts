import { and, asc, desc, eq, inArray } from 'drizzle-orm'
import { randomUUID } from 'node:crypto'
import type { Db } from '../client'
import { experimentRounds, experiments } from '../schema'
import type { ExperimentRow, ExperimentRoundRow } from '../../core/rows'
import { openRoundStatuses } from '../../engine/experiments/round-statuses'
export type { ExperimentRow, ExperimentRoundRow } from '../../core/rows'

export function listExperiments(db: Db): ExperimentRow[] {
  return db.select().from(experiments).orderBy(desc(experiments.updatedAt)).all()
}

export function getExperiment(db: Db, id: string): ExperimentRow | null {
  return db.select().from(experiments).where(eq(experiments.id, id)).get() ?? null
}

export function createExperiment(db: Db, definition: { name: string, current_best: string } & Record<string, unknown>): ExperimentRow {
  const now = Date.now()
  const row = { id: randomUUID(), name: definition.name, definition, currentBest: definition.current_best, createdAt: now, updatedAt: now }
  db.insert(experiments).values(row).run()
  return row
}

export function updateExperiment(db: Db, id: string, definition: { name: string, current_best: string } & Record<string, unknown>): ExperimentRow | null {
  const result = db.update(experiments)
    .set({ name: definition.name, definition, currentBest: definition.current_best, updatedAt: Date.now() })
    .where(eq(experiments.id, id)).run()
  return result.changes ? getExperiment(db, id) : null
}

export function deleteExperiment(db: Db, id: string): boolean {
  return db.delete(experiments).where(eq(experiments.id, id)).run().changes > 0
}

export function listRounds(db: Db, experimentId: string): ExperimentRoundRow[] {
  return db.select().from(experimentRounds).where(eq(experimentRounds.experimentId, experimentId)).orderBy(asc(experimentRounds.number)).all()
}

/** Whether the round exists, read without its runs, judgments and report. */
export function roundExists(db: Db, experimentId: string, number: number): boolean {
  return !!db.select({ id: experimentRounds.id }).from(experimentRounds)
    .where(and(eq(experimentRounds.experimentId, experimentId), eq(experimentRounds.number, number))).get()
}

export function getRound(db: Db, experimentId: string, number: number): ExperimentRoundRow | null {
  return db.select().from(experimentRounds).where(and(eq(experimentRounds.experimentId, experimentId), eq(experimentRounds.number, number))).get() ?? null
}

/** A new round, numbered after the last one, in one transaction. */
export function createRound(db: Db, experimentId: string, currentBest: string): ExperimentRoundRow {
  return db.transaction((tx) => {
    const last = tx.select().from(experimentRounds).where(eq(experimentRounds.experimentId, experimentId)).orderBy(desc(experimentRounds.number)).get()
    const row = { id: randomUUID(), experimentId, number: (last?.number ?? 0) + 1, status: 'running', currentBest, runs: [], judgments: [], report: null, error: null, createdAt: Date.now(), finishedAt: null }
    tx.insert(experimentRounds).values(row).run()
    return row
  })
}

export function updateRound(db: Db, id: string, patch: Partial<Pick<ExperimentRoundRow, 'status' | 'runs' | 'judgments' | 'report' | 'error' | 'finishedAt'>>): void {
  db.update(experimentRounds).set(patch).where(eq(experimentRounds.id, id)).run()
}

/** Rounds still running or being judged (after a restart: to be followed to their end). */
export function listOpenRounds(db: Db): ExperimentRoundRow[] {
  return db.select().from(experimentRounds).where(inArray(experimentRounds.status, [...openRoundStatuses])).all()
}
