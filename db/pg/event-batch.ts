import pg from 'pg'
import type { RunEventRow } from '../repositories/runs'
import { RUN_EVENTS_CHANNEL } from './channels'
import { EVENT_COLUMNS, jsonValue, name, RUN_END_COLUMNS, RUN_END_JSON, STEP_COLUMNS, STEP_JSON, writeOne, type EventWrite } from './event-writes'
import { runEvents, runs, stepRuns } from './schema'

/** Event statements of one process in flight at once; the events arriving meanwhile go together in the next. */
export const EVENT_STATEMENTS = 2
/** Events in one statement at most: their NOTIFY payload stays well under PostgreSQL's 8,000 bytes. */
export const EVENTS_PER_STATEMENT = 64

const step = (i: number) => `s${i}`
const ended = (i: number) => `e${i}`
const nameOf = (column: { name: string }) => column.name

/**
 * The events of several runs in one statement, each as `writeOne` writes it: fenced by its run's
 * holder (a share lock on the run's row), with its step row and the run's end, in one JSON array of
 * records (`$1`), inserted in their order (`ord`), so a run's events keep theirs. One NOTIFY
 * carries them all, a line each (`<run id> <event id> <type>`). A step row is written once per
 * statement: by the last of a run's events that carries it (`has_step`).
 */
function batchText(): string {
  const fields = [
    'ord integer', ...EVENT_COLUMNS.map(c => `${name(c)} ${c.getSQLType()}`), 'holder text',
    'has_step boolean', ...STEP_COLUMNS.map((c, i) => `${step(i)} ${stepRuns[c].getSQLType()}`),
    'has_end boolean', ...RUN_END_COLUMNS.map((c, i) => `${ended(i)} ${runs[c].getSQLType()}`),
  ]
  const conflict = [stepRuns.runId, stepRuns.nodeId, stepRuns.attempt].map(name).join(', ')
  const updates = STEP_COLUMNS.slice(3).map(c => `${name(stepRuns[c])} = excluded.${name(stepRuns[c])}`).join(', ')
  const sets = RUN_END_COLUMNS.map((c, i) => `${name(runs[c])} = held.${ended(i)}`).join(', ')
  const eventColumns = EVENT_COLUMNS.map(name).join(', ')
  return [
    `with x as (select * from json_to_recordset($1::json) as x(${fields.join(', ')}))`,
    `, held as (select x.* from x join "runs" r on r.${name(runs.id)} = x.${name(runEvents.runId)} and (x.holder is null or r.${name(runs.leaseOwner)} = x.holder) for share of r)`,
    `, step as (insert into "step_runs" (${STEP_COLUMNS.map(c => name(stepRuns[c])).join(', ')}) select ${STEP_COLUMNS.map((_, i) => step(i)).join(', ')} from held where has_step on conflict (${conflict}) do update set ${updates})`,
    `, ended as (update "runs" set ${sets} from held where "runs".${name(runs.id)} = held.${name(runEvents.runId)} and held.has_end)`,
    `, event as (insert into "run_events" (${eventColumns}) select ${eventColumns} from held order by ord returning "id", "run_id", "type")`,
    `, told as (select pg_notify('${RUN_EVENTS_CHANNEL}', string_agg("run_id" || ' ' || "id" || ' ' || "type", E'\\n' order by "id")) from event having count(*) > 0)`,
    'select "id", "run_id" from event, told',
  ].join('\n')
}

let text: string | undefined
const batchStatement = () => ({ name: 'judgeflow_event_batch', text: text ??= batchText() })

/**
 * A write as one record of the batch's JSON: JSON columns hold the value itself, SQL NULL for none.
 * `withStep`: it writes its step row (no later event of the statement carries the same step).
 */
function record(write: EventWrite, ord: number, withStep: boolean): Record<string, unknown> {
  const { row } = write
  const out: Record<string, unknown> = {
    ord, [nameOf(runEvents.runId)]: row.runId, [nameOf(runEvents.type)]: row.type, [nameOf(runEvents.nodeId)]: row.nodeId,
    [nameOf(runEvents.attempt)]: row.attempt, [nameOf(runEvents.data)]: row.data, [nameOf(runEvents.at)]: row.at, holder: write.holder,
    has_step: withStep, has_end: Boolean(write.end),
  }
  if (withStep) STEP_COLUMNS.forEach((c, i) => { out[step(i)] = STEP_JSON.has(c) ? rawJson(write.step![c]) : write.step![c] })
  if (write.end) RUN_END_COLUMNS.forEach((c, i) => { out[ended(i)] = RUN_END_JSON.has(c) ? rawJson(write.end![c]) : write.end![c] })
  return out
}

/** A JSON column's value inside the record: none is SQL NULL, as `jsonValue` makes it in a single write. */
const rawJson = (value: unknown) => (jsonValue(value) === null ? null : value)

/** The records of a statement: each run's writes in order, a step row by the last write that carries it. */
function records(batch: readonly Pending[]): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = []
  for (const { writes } of batch) {
    const stepKey = (write: EventWrite) => (write.step ? `${write.step.nodeId} ${write.step.attempt}` : undefined)
    writes.forEach((write, i) => {
      const key = stepKey(write)
      out.push(record(write, out.length, key !== undefined && !writes.slice(i + 1).some(later => stepKey(later) === key)))
    })
  }
  return out
}

/** A run's writes, committed together (one unless events were held back to go with the next). */
interface Pending {
  writes: readonly EventWrite[]
  resolve: (rows: RunEventRow[] | null) => void
  reject: (error: unknown) => void
}

/**
 * Group commit of run events: each write is one statement of its own when nothing else is being
 * written, and the writes arriving while EVENT_STATEMENTS are in flight go together in the next
 * (at most one per run: a run's writes go one after another). Under load, a worker executing
 * dozens of runs pays a round trip, a commit and a NOTIFY per batch instead of per event. Each
 * write settles once its statement has committed; a batch the database refuses is written again
 * event by event, so one bad write fails alone.
 */
export function eventBatcher(pool: pg.Pool) {
  let pending: Pending[] = []
  let inFlight = 0

  const alone = (item: Pending) => (item.writes.length === 1
    ? writeOne(pool, item.writes[0]!).then(row => item.resolve(row && [row]), item.reject)
    : write([item], false))
  const write = async (batch: Pending[], retry = true): Promise<void> => {
    if (batch.length === 1 && batch[0]!.writes.length === 1) return alone(batch[0]!)
    try {
      const values = [JSON.stringify(records(batch))]
      const { rows } = await pool.query<{ id: string, run_id: string }>({ ...batchStatement(), values })
      // A run's events got their ids in their order; none came back for a run another process holds.
      const ids = new Map<string, number[]>()
      for (const row of rows) (ids.get(row.run_id) ?? ids.set(row.run_id, []).get(row.run_id)!).push(Number(row.id))
      for (const { writes, resolve } of batch) {
        const got = ids.get(writes[0]!.row.runId)?.sort((a, b) => a - b)
        resolve(got?.length === writes.length ? writes.map((w, i) => ({ id: got[i]!, ...w.row })) : null)
      }
    }
    catch (error) {
      // Refused by the database, the statement wrote nothing: each write again alone. A lost
      // connection may have lost the answer to a commit: writing again could store an event twice.
      if (!retry || !(error instanceof pg.DatabaseError)) {
        for (const item of batch) item.reject(error)
        return
      }
      for (const item of batch) await alone(item)
    }
  }

  const flush = () => {
    while (pending.length && inFlight < EVENT_STATEMENTS) {
      // One write per run in a statement (its result is found by run id); a second waits for the next.
      const batch: Pending[] = []
      const runsIn = new Set<string>()
      const left: Pending[] = []
      let events = 0
      for (const item of pending) {
        const runId = item.writes[0]!.row.runId
        if (events + item.writes.length <= EVENTS_PER_STATEMENT && !runsIn.has(runId)) {
          runsIn.add(runId)
          batch.push(item)
          events += item.writes.length
        }
        // A run's writes wait for the one before to commit; a first one larger than a statement still goes alone.
        else if (!batch.length) {
          runsIn.add(runId)
          batch.push(item)
          events += item.writes.length
        }
        else left.push(item)
      }
      pending = left
      inFlight++
      void write(batch).finally(() => {
        inFlight--
        flush()
      })
    }
  }

  /** Writes a run's events in one commit, in order: their rows, or null when the run is held by another process. */
  return (writes: readonly EventWrite[]): Promise<RunEventRow[] | null> => new Promise((resolve, reject) => {
    pending.push({ writes, resolve, reject })
    flush()
  })
}
