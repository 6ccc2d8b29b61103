import { and, eq, getTableColumns, getTableName, sql } from 'drizzle-orm'
import type { OnlineDecisionRow, OnlineSpanRow } from '../../core/online-rows'
import type { Db } from '../client'
import { prepared } from '../prepared'
import { onlineDecisions, onlineSpans } from '../schema'

/**
 * An insert of one row into `table`, prepared once, a row already there left as it is: each value
 * encoded by its column as drizzle's insert encodes it (null stays NULL, a JSON value is stringified).
 */
function rowInsert(db: Db, table: typeof onlineSpans | typeof onlineDecisions): (row: object) => number {
  return prepared(db, `${getTableName(table)}.insert-row`, () => {
    const columns = Object.entries(getTableColumns(table))
    const statement = db.$client.prepare(`INSERT INTO "${getTableName(table)}" (${columns.map(([, c]) => `"${c.name}"`).join(', ')}) `
      + `VALUES (${columns.map(() => '?').join(', ')}) ON CONFLICT DO NOTHING`)
    return (row: object) => {
      const values = row as Record<string, unknown>
      return statement.run(columns.map(([field, column]) => {
        const value = values[field]
        return value === null || value === undefined ? null : column.mapToDriverValue(value)
      })).changes
    }
  })
}

/**
 * A request's spans and decisions on SQLite, in the caller's transaction: each row through an
 * insert prepared once; the rows each added. Building a multi-row insert with drizzle for every
 * request cost the server more CPU than SQLite's writing the rows.
 */
export function ingestOnlineRows(db: Db, spans: readonly OnlineSpanRow[], decisions: readonly OnlineDecisionRow[]): { spans: number, decisions: number } {
  const spanInsert = rowInsert(db, onlineSpans)
  const decisionInsert = rowInsert(db, onlineDecisions)
  let stored = 0
  for (const row of spans) stored += spanInsert(row)
  let decided = 0
  for (const row of decisions) decided += decisionInsert(row)
  return { spans: stored, decisions: decided }
}

/** A stored span on SQLite, through a select prepared once: online scoring reads one a scoring started. */
export function getOnlineSpan(db: Db, traceId: string, spanId: string): OnlineSpanRow | null {
  return prepared(db, 'online-spans.get', () => db.select().from(onlineSpans)
    .where(and(eq(onlineSpans.traceId, sql.placeholder('traceId')), eq(onlineSpans.spanId, sql.placeholder('spanId')))).prepare())
    .get({ traceId, spanId }) ?? null
}
