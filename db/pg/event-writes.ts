import type pg from 'pg'
import type { RunFinished } from '../../core/store'
import type { RunEvent } from '../../engine/executor/types'
import type { RunEventRow } from '../repositories/runs'
import { eventRows } from '../run-recorder'
import { RUN_EVENTS_CHANNEL } from './channels'
import { runEvents, runs, stepRuns } from './schema'

/**
 * A run's event written in one statement, fenced by the run's holder, with the step row it
 * carries, the run's end for `run.finished`, and the NOTIFY of the event (delivered at commit): one round trip instead of a
 * transaction of five, the hot path of every run on PostgreSQL. The statements are named, so each
 * connection parses and plans each shape once. Same rows and values as the drizzle writes
 * (json columns hold `JSON.stringify` of the value, SQL NULL for none).
 */

export const STEP_COLUMNS = ['runId', 'nodeId', 'attempt', 'status', 'input', 'output', 'branch', 'error', 'reason', 'rerun', 'usage', 'cached', 'pinned', 'startedAt', 'finishedAt', 'durationMs'] as const
export const STEP_JSON = new Set<string>(['input', 'output', 'error', 'rerun', 'usage'])
export const RUN_END_COLUMNS = ['status', 'verdict', 'output', 'error', 'finishedAt', 'durationMs'] as const
export const RUN_END_JSON = new Set<string>(['output', 'error'])

export const name = (column: { name: string }) => `"${column.name}"`

/** A parameter cast to its column's type: inserted through SELECT, it has no VALUES list to take the type from. */
const typed = (n: number, column: { getSQLType: () => string }) => `$${n}::${column.getSQLType()}`

export const EVENT_COLUMNS = [runEvents.runId, runEvents.type, runEvents.nodeId, runEvents.attempt, runEvents.data, runEvents.at]

/**
 * `$1`–`$6`: the event; `$7`: the run's holder (null: an unfenced write); then the step's columns
 * (when it carries one); then the run's end (run.finished).
 *
 * Fenced: `held` reads the run's row under a share lock, and every write selects from it, so when
 * another process has taken the run over, nothing is written and no row comes back. A takeover
 * committed after this statement's snapshot is seen all the same (a locking read rechecks the
 * row's latest version), and one not yet committed waits for this statement: a process that lost
 * its run can never write to it after the takeover.
 */
function statementText(withStep: boolean, withEnd: boolean): string {
  const parts = [`held as (select ${name(runs.id)} from "runs" where ${name(runs.id)} = $1 and ($7::text is null or ${name(runs.leaseOwner)} = $7) for share)`]
  let next = 8
  if (withStep) {
    const conflict = [stepRuns.runId, stepRuns.nodeId, stepRuns.attempt].map(name).join(', ')
    const updates = STEP_COLUMNS.slice(3).map(c => `${name(stepRuns[c])} = excluded.${name(stepRuns[c])}`).join(', ')
    const values = STEP_COLUMNS.map((c, i) => typed(next + i, stepRuns[c])).join(', ')
    parts.push(`step as (insert into "step_runs" (${STEP_COLUMNS.map(c => name(stepRuns[c])).join(', ')}) select ${values} from held on conflict (${conflict}) do update set ${updates})`)
    next += STEP_COLUMNS.length
  }
  if (withEnd) {
    const sets = RUN_END_COLUMNS.map((c, i) => `${name(runs[c])} = ${typed(next + i, runs[c])}`).join(', ')
    parts.push(`ended as (update "runs" set ${sets} where ${name(runs.id)} in (select ${name(runs.id)} from held))`)
  }
  const eventValues = EVENT_COLUMNS.map((column, i) => typed(1 + i, column)).join(', ')
  parts.push(`event as (insert into "run_events" (${EVENT_COLUMNS.map(name).join(', ')}) select ${eventValues} from held returning ${name(runEvents.id)}, ${name(runEvents.runId)}, ${name(runEvents.type)})`)
  return `with ${parts.join(', ')} select "id", pg_notify('${RUN_EVENTS_CHANNEL}', "run_id" || ' ' || "id" || ' ' || "type") from event`
}

const statements = new Map<string, string>()
function statement(withStep: boolean, withEnd: boolean): { name: string, text: string } {
  const key = `judgeflow_event_held${withStep ? '_step' : ''}${withEnd ? '_end' : ''}`
  let text = statements.get(key)
  if (!text) statements.set(key, text = statementText(withStep, withEnd))
  return { name: key, text }
}

export const jsonValue = (value: unknown) => (value === null || value === undefined ? null : JSON.stringify(value))

/** One event to write: its row, the step row it carries, and the run's end (run.finished). */
export interface EventWrite {
  row: Omit<RunEventRow, 'id'>
  step?: ReturnType<typeof eventRows>['step']
  end?: Record<(typeof RUN_END_COLUMNS)[number], unknown>
  /** The run's holder: written only while it holds the run (null: an unfenced write). */
  holder: string | null
}

export function eventWrite(runId: string, event: RunEvent, end?: RunFinished['result'], holder?: string): EventWrite {
  const { step, row } = eventRows(runId, event)
  return {
    row, step, holder: holder ?? null,
    end: end && {
      status: end.status, verdict: end.verdict ?? null, output: end.output ?? null, error: end.error ?? null,
      finishedAt: Date.now(), durationMs: end.duration_ms ?? null,
    },
  }
}

/**
 * Stores the event (and for `run.finished`, the run's end) in one statement; returns the stored
 * event with its id, or null when its holder no longer holds the run.
 */
export async function writeOne(client: pg.Pool | pg.PoolClient, { row, step, end, holder }: EventWrite): Promise<RunEventRow | null> {
  const values: unknown[] = [row.runId, row.type, row.nodeId, row.attempt, JSON.stringify(row.data), row.at, holder]
  if (step) for (const c of STEP_COLUMNS) values.push(STEP_JSON.has(c) ? jsonValue(step[c]) : step[c])
  if (end) for (const c of RUN_END_COLUMNS) values.push(RUN_END_JSON.has(c) ? jsonValue(end[c]) : end[c])
  const { rows } = await client.query<{ id: string }>({ ...statement(Boolean(step), Boolean(end)), values })
  return rows.length ? { id: Number(rows[0]!.id), ...row } : null
}
