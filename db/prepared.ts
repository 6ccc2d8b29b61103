import { is, Param, Placeholder } from 'drizzle-orm'
import { JudgeflowError } from '../engine/errors'
import type { Db } from './client'

const cache = new WeakMap<object, Map<string, unknown>>()

/**
 * A statement prepared once per database and reused: building and preparing a query costs
 * more than running it, and the hot paths (run and event writes) run thousands per second.
 */
export function prepared<T>(db: object, key: string, build: () => T): T {
  let statements = cache.get(db)
  if (!statements) cache.set(db, statements = new Map())
  let statement = statements.get(key) as T | undefined
  if (!statement) statements.set(key, statement = build())
  return statement
}

/** A query whose values are placeholders (`sql.placeholder`), before drizzle prepares it. */
interface WithPlaceholders {
  toSQL(): { sql: string, params: unknown[] }
}

/** A statement run without drizzle's per-call mapping: `get` answers SQLite's row as it is. */
export interface DirectStatement {
  run(values: Record<string, unknown>): void
  get(values: Record<string, unknown>): Record<string, unknown> | undefined
}

/**
 * A query with placeholders, prepared once and run straight on its better-sqlite3 statement. Each
 * value is encoded by its column exactly as drizzle encodes it (a JSON column's value, null
 * included, is stringified), but the matching of values to placeholders is worked out once
 * instead of at every call: on the event writes, drizzle's own mapping cost about as much CPU as
 * the statements. For the hot writes only, whose rows need no decoding (`get` gives SQLite's row).
 */
export function direct(db: Db, key: string, build: () => WithPlaceholders): DirectStatement {
  return prepared(db, key, () => {
    const { sql: text, params } = build().toSQL()
    const valueOf = (values: Record<string, unknown>, name: string) => {
      if (!(name in values)) throw new JudgeflowError('INTERNAL', `statement "${key}": no value for placeholder "${name}"`)
      return values[name]
    }
    const encoders = params.map((param) => {
      if (is(param, Param) && is(param.value, Placeholder)) {
        const { encoder } = param
        const name = param.value.name
        if (!encoder) return (values: Record<string, unknown>) => valueOf(values, name)
        return (values: Record<string, unknown>) => encoder.mapToDriverValue(valueOf(values, name))
      }
      if (is(param, Placeholder)) return (values: Record<string, unknown>) => valueOf(values, param.name)
      return () => param
    })
    const statement = db.$client.prepare(text)
    const args = (values: Record<string, unknown>) => encoders.map(encode => encode(values))
    return {
      run: (values) => { statement.run(args(values)) },
      get: values => statement.get(args(values)) as Record<string, unknown> | undefined,
    }
  })
}
