import type pg from 'pg'
import type { RunFinished } from '../../core/store'
import type { RunEvent } from '../../engine/executor/types'
import type { RunEventRow } from '../repositories/runs'
import { eventRows } from '../run-recorder'
import { RUN_EVENTS_CHANNEL } from './channels'
import { runEvents, runs, stepRuns } from './schema'

/**
 * A run's event written in one statement, with the step row it carries, the run's end for
 * `run.finished`, and the NOTIFY of the event (delivered at commit): one round trip instead of a
 * transaction of five, the hot path of every run on PostgreSQL. The statements are named, so each
 * connection parses and plans each shape once. Same rows and values as the drizzle writes
 * (json columns hold `JSON.stringify` of the value, SQL NULL for none).
 */

const STEP_COLUMNS = ['runId', 'nodeId', 'attempt', 'status', 'input', 'output', 'branch', 'error', 'reason', 'rerun', 'usage', 'cached', 'pinned', 'startedAt', 'finishedAt', 'durationMs'] as const
const STEP_JSON = new Set<string>(['input', 'output', 'error', 'rerun', 'usage'])
const RUN_END_COLUMNS = ['status', 'verdict', 'output', 'error', 'finishedAt', 'durationMs'] as const
const RUN_END_JSON = new Set<string>(['output', 'error'])

const name = (column: { name: string }) => `"${column.name}"`
const placeholders = (from: number, count: number) => Array.from({ length: count }, (_, i) => `$${from + i}`).join(', ')

/** `$1`–`$6`: the event; then the step's columns (when it carries one); then the run's end (run.finished). */
function statementText(withStep: boolean, withEnd: boolean): string {
  const parts: string[] = []
  let next = 7
  if (withStep) {
    const conflict = [stepRuns.runId, stepRuns.nodeId, stepRuns.attempt].map(name).join(', ')
    const updates = STEP_COLUMNS.slice(3).map(c => `${name(stepRuns[c])} = excluded.${name(stepRuns[c])}`).join(', ')
    parts.push(`step as (insert into "step_runs" (${STEP_COLUMNS.map(c => name(stepRuns[c])).join(', ')}) values (${placeholders(next, STEP_COLUMNS.length)}) on conflict (${conflict}) do update set ${updates})`)
    next += STEP_COLUMNS.length
  }
  if (withEnd) {
    const sets = RUN_END_COLUMNS.map((c, i) => `${name(runs[c])} = $${next + i}`).join(', ')
    parts.push(`ended as (update "runs" set ${sets} where ${name(runs.id)} = $1)`)
  }
  const eventColumns = [runEvents.runId, runEvents.type, runEvents.nodeId, runEvents.attempt, runEvents.data, runEvents.at].map(name).join(', ')
  parts.push(`event as (insert into "run_events" (${eventColumns}) values (${placeholders(1, 6)}) returning ${name(runEvents.id)}, ${name(runEvents.runId)}, ${name(runEvents.type)})`)
  return `with ${parts.join(', ')} select "id", pg_notify('${RUN_EVENTS_CHANNEL}', "run_id" || ' ' || "id" || ' ' || "type") from event`
}

const statements = new Map<string, string>()
function statement(withStep: boolean, withEnd: boolean): { name: string, text: string } {
  const key = `judgeflow_event${withStep ? '_step' : ''}${withEnd ? '_end' : ''}`
  let text = statements.get(key)
  if (!text) statements.set(key, text = statementText(withStep, withEnd))
  return { name: key, text }
}

const jsonValue = (value: unknown) => (value === null || value === undefined ? null : JSON.stringify(value))

/** Stores the event (and for `run.finished`, the run's end); returns the stored event with its id. */
export async function writeEvent(pool: pg.Pool, runId: string, event: RunEvent, end?: RunFinished['result']): Promise<RunEventRow> {
  const { step, row } = eventRows(runId, event)
  const values: unknown[] = [row.runId, row.type, row.nodeId, row.attempt, JSON.stringify(row.data), row.at]
  if (step) for (const c of STEP_COLUMNS) values.push(STEP_JSON.has(c) ? jsonValue(step[c]) : step[c])
  if (end) {
    const ended: Record<(typeof RUN_END_COLUMNS)[number], unknown> = {
      status: end.status, verdict: end.verdict ?? null, output: end.output ?? null, error: end.error ?? null,
      finishedAt: Date.now(), durationMs: end.duration_ms ?? null,
    }
    for (const c of RUN_END_COLUMNS) values.push(RUN_END_JSON.has(c) ? jsonValue(ended[c]) : ended[c])
  }
  const { rows } = await pool.query<{ id: string }>({ ...statement(Boolean(step), Boolean(end)), values })
  return { id: Number(rows[0]!.id), ...row }
}
