import { sql } from 'drizzle-orm'
import type { Journal, RunEvent, StepRecord } from '../engine/executor/types'
import type { Db } from './client'
import { runEvents, stepRuns } from './schema'
import { listStepRuns, type RunEventRow, type StepRunRow } from './repositories/runs'

/**
 * Writes a run's events as the executor emits them: each step event and its step row in one
 * transaction, committed before the executor moves on (it awaits the sink).
 */
export function createRunRecorder(db: Db, runId: string) {
  const insertEvent = db.insert(runEvents).values({
    runId, type: sql.placeholder('type'), nodeId: sql.placeholder('nodeId'), attempt: sql.placeholder('attempt'),
    data: sql.placeholder('data'), at: sql.placeholder('at'),
  }).returning({ id: runEvents.id }).prepare()

  const stepColumns = ['status', 'input', 'output', 'branch', 'error', 'reason', 'rerun', 'usage', 'cached', 'pinned', 'startedAt', 'finishedAt', 'durationMs'] as const
  const upsert = db.insert(stepRuns).values({
    runId, nodeId: sql.placeholder('nodeId'), attempt: sql.placeholder('attempt'),
    ...Object.fromEntries(stepColumns.map(column => [column, sql.placeholder(column)])) as Record<(typeof stepColumns)[number], ReturnType<typeof sql.placeholder>>,
  }).onConflictDoUpdate({
    target: [stepRuns.runId, stepRuns.nodeId, stepRuns.attempt],
    set: Object.fromEntries(stepColumns.map(column => [column, sql.raw(`excluded.${stepRuns[column].name}`)])),
  }).prepare()
  const upsertStep = (step: StepRecord) => upsert.run(stepRow(runId, step))

  return {
    /** Stores the event (and the step row it carries); returns the stored event with its id. */
    record(event: RunEvent): RunEventRow {
      return db.transaction(() => {
        const { type, at, ...rest } = event
        let nodeId: string | null = null
        let attempt: number | null = null
        if ('step' in event) {
          upsertStep(event.step)
          nodeId = event.step.node_id
          attempt = event.step.attempt
        }
        else if (event.type === 'step.started') {
          upsertStep({ node_id: event.node_id, attempt: event.attempt, status: 'running' as StepRecord['status'], input: event.input, started_at: event.at })
          nodeId = event.node_id
          attempt = event.attempt
        }
        else if (event.type === 'step.retrying') {
          nodeId = event.node_id
          attempt = event.attempt
        }
        const { id } = insertEvent.get({ type, nodeId, attempt, data: rest, at }) as { id: number }
        return { id, runId, type, nodeId, attempt, data: rest as Record<string, unknown>, at }
      })
    },
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
  const byKey = new Map<string, StepRecord>()
  for (const row of listStepRuns(db, runId)) {
    if (row.status === 'succeeded' || row.status === 'failed' || row.status === 'skipped') byKey.set(`${row.nodeId}#${row.attempt}`, recordFromRow(row))
  }
  return (nodeId, attempt) => byKey.get(`${nodeId}#${attempt}`)
}
