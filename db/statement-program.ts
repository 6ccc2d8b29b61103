/**
 * One store method written once for both dialects, where its statements must run in order and
 * may share a transaction. The two drizzle dialects build the same queries from the same calls,
 * but run them differently: better-sqlite3 runs each statement at once and its transaction takes
 * no promise, node-postgres awaits each one. So the method is a generator (a `Program`) that builds
 * its statements on the handle it is given and yields them; a runner executes each and hands back
 * its rows — synchronously on SQLite (`runOnSqlite`), awaiting on PostgreSQL (`runOnPostgres`).
 */

/** What a program yields: a query whose rows it wants, a statement run for its effect, or a transaction. */
export type Step
  = | { rows: any }
    | { run: any }
    | { transaction: (tx: any) => Program<unknown> }

/** A store method's body: yields its steps, is handed each one's answer (the rows, or the transaction's result). */
export type Program<T> = Generator<Step, T, any>

/** The rows of a query built on either dialect. */
export const rowsOf = (query: unknown): Step => ({ rows: query })
/** A statement run for its effect. */
export const runOf = (statement: unknown): Step => ({ run: statement })
/** A transaction on the handle the runner gives, its statements built on that handle by `body`. */
export const inTransaction = <T>(body: (tx: any) => Program<T>): Step => ({ transaction: body })

/** A program of one query: its rows. */
export function* allRows<T>(query: unknown): Program<T[]> {
  return yield rowsOf(query)
}

/** A program of one query: its first row, or null. */
export function* firstRow<T>(query: unknown): Program<T | null> {
  const [row] = yield rowsOf(query)
  return row ?? null
}

/**
 * The write lock is taken at BEGIN (as the group commit takes it): a transaction that reads a row
 * before it writes sees the latest commit, never a snapshot another process's commit made stale.
 */
const IMMEDIATE = { behavior: 'immediate' } as const

/** Runs a program on a better-sqlite3 drizzle handle, every statement at once: the answer, not a promise. */
export function runOnSqlite<T>(db: any, program: Program<T>): T {
  let next = program.next()
  while (!next.done) {
    const step = next.value
    const answer = 'rows' in step
      ? step.rows.all()
      : 'run' in step ? step.run.run() : db.transaction((tx: any) => runOnSqlite(tx, step.transaction(tx)), IMMEDIATE)
    next = program.next(answer)
  }
  return next.value
}

/** Runs a program on a node-postgres drizzle handle, awaiting each statement in turn. */
export async function runOnPostgres<T>(db: any, program: Program<T>): Promise<T> {
  let next = program.next()
  while (!next.done) {
    const step = next.value
    const answer = 'transaction' in step
      ? await db.transaction((tx: any) => runOnPostgres(tx, step.transaction(tx)))
      : await ('rows' in step ? step.rows : step.run)
    next = program.next(answer)
  }
  return next.value
}

/** How a store runs a program on its database: at once on SQLite (`runOnSqlite`), awaited on PostgreSQL once it is ready. */
export type Perform = <T>(program: (db: any) => Program<T>) => T | Promise<T>

/** Runs a store's programs on its SQLite database. */
export const performOnSqlite = (db: any): Perform => program => runOnSqlite(db, program(db))

/** Runs a store's programs on its PostgreSQL database, once its migrations are applied (`ready`). */
export const performOnPostgres = (db: any, ready: Promise<void>): Perform => async (program) => {
  await ready
  return runOnPostgres(db, program(db))
}
