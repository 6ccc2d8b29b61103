import { sql } from 'drizzle-orm'
import type { Journal, RunEvent, StepRecord } from '../engine/executor/types'
import { boundEvent } from '../engine/executor/truncated'
import type { Db } from './client'
import { runEvents, stepRuns } from './schema'
import { listStepRuns, type RunEventRow, type StepRunRow } from './repositories/runs'
import { direct } from './prepared'
import { committedStepStatuses } from '../core/rows'

/** The statuses a resumed run replays: each one a finished step record's. */
const COMMITTED = new Set<string>(committedStepStatuses satisfies ReadonlyArray<StepRecord['status']>)

const STEP_COLUMNS = ['status', 'input', 'output', 'branch', 'error', 'reason', 'rerun', 'usage', 'cached', 'pinned', 'startedAt', 'finishedAt', 'durationMs'] as const
type StepPlaceholders = Record<(typeof STEP_COLUMNS)[number], ReturnType<typeof sql.placeholder>>

// Direct statements: these two run for every event of every run.
function statements(db: Db) {
  return {
    insertEvent: direct(db, 'run-recorder.event', () => db.insert(runEvents).values({
      runId: sql.placeholder('runId'), type: sql.placeholder('type'), nodeId: sql.placeholder('nodeId'),
      attempt: sql.placeholder('attempt'), data: sql.placeholder('data'), at: sql.placeholder('at'),
    }).returning({ id: runEvents.id })),
    upsertStep: direct(db, 'run-recorder.step', () => db.insert(stepRuns).values({
      runId: sql.placeholder('runId'), nodeId: sql.placeholder('nodeId'), attempt: sql.placeholder('attempt'),
      ...Object.fromEntries(STEP_COLUMNS.map(column => [column, sql.placeholder(column)])) as StepPlaceholders,
    }).onConflictDoUpdate({
      target: [stepRuns.runId, stepRuns.nodeId, stepRuns.attempt],
      set: Object.fromEntries(STEP_COLUMNS.map(column => [column, sql.raw(`excluded.${stepRuns[column].name}`)])),
    })),
  }
}

/**
 * Stores one executor event and the step row it carries (a started step gets a `running` row).
 * Call it inside a transaction; returns the stored event with its id.
 */
export function storeEvent(db: Db, runId: string, event: RunEvent): RunEventRow {
  const { insertEvent, upsertStep } = statements(db)
  const { step, row } = eventRows(runId, event)
  if (step) upsertStep.run(step)
  const { id } = insertEvent.get(row) as { id: number }
  return { id, ...row }
}

/** The rows one executor event is stored as: the event's, and the step it carries (a started step as `running`). */
export function eventRows(runId: string, event: RunEvent): { step?: ReturnType<typeof stepRow>, row: Omit<RunEventRow, 'id'> } {
  const { type, at, ...rest } = boundEvent(event)
  let step: StepRecord | undefined
  if ('step' in event) step = event.step
  else if (event.type === 'step.started') step = { node_id: event.node_id, attempt: event.attempt, status: 'running' as StepRecord['status'], input: event.input, started_at: event.at }
  const nodeId = step?.node_id ?? (event.type === 'step.retrying' ? event.node_id : null)
  const attempt = step?.attempt ?? (event.type === 'step.retrying' ? event.attempt : null)
  return { step: step && stepRow(runId, step), row: { runId, type, nodeId, attempt, data: rest as Record<string, unknown>, at } }
}

/** Writes each event in its own transaction, committed before the executor moves on (it awaits the sink). */
export function createRunRecorder(db: Db, runId: string) {
  return {
    record: (event: RunEvent): RunEventRow => db.transaction(() => storeEvent(db, runId, event)),
  }
}

export function stepRow(runId: string, step: StepRecord) {
  return {
    runId, nodeId: step.node_id, attempt: step.attempt, status: step.status,
    input: step.input ?? null, output: step.output ?? null, branch: step.branch ?? null, error: step.error ?? null,
    reason: step.reason ?? null, rerun: step.rerun ?? null, usage: step.usage ?? null,
    cached: step.cached ?? null, pinned: step.pinned ?? null,
    startedAt: step.started_at ?? null, finishedAt: step.finished_at ?? null, durationMs: step.duration_ms ?? null,
  }
}

export function recordFromRow(row: StepRunRow): StepRecord {
  return {
    node_id: row.nodeId, attempt: row.attempt, status: row.status as StepRecord['status'],
    input: row.input ?? undefined, output: row.output ?? undefined, branch: row.branch ?? undefined,
    error: (row.error ?? undefined) as StepRecord['error'], reason: row.reason ?? undefined, rerun: row.rerun ?? undefined,
    usage: row.usage ?? undefined, cached: row.cached ?? undefined, pinned: row.pinned ?? undefined,
    started_at: row.startedAt ?? undefined, finished_at: row.finishedAt ?? undefined, duration_ms: row.durationMs ?? undefined,
  }
}

/** The committed steps of a run, for resuming it: finished records only (running rows are redone). */
export function journalFor(db: Db, runId: string): Journal {
  return journalOf(listStepRuns(db, runId))
}

/** A run's journal from its step rows. */
export function journalOf(rows: StepRunRow[]): Journal {
  const byKey = new Map<string, StepRecord>()
  for (const row of rows) {
    if (COMMITTED.has(row.status)) byKey.set(`${row.nodeId}#${row.attempt}`, recordFromRow(row))
  }
  return (nodeId, attempt) => byKey.get(`${nodeId}#${attempt}`)
}
