import { eq } from 'drizzle-orm'
import { afterAll, afterEach, describe, expect, it } from 'vitest'
import type { Store } from '../../../core'
import { type DbHandle } from '../../../db'
import type { PgHandle } from '../../../db/pg/client'
import * as pgSchema from '../../../db/pg/schema'
import * as liteSchema from '../../../db/schema'
import { inTransaction, performOnPostgres, performOnSqlite, rowsOf, runOf, type Perform, type Program } from '../../../db/statement-program'
import { storeFactories, stopStores } from '../../support/stores'

afterAll(stopStores)

/** One program, run by either runner: a setting written, then read back in the same transaction, then the transaction fails or not. */
function* setThenRead(tables: { appSettings: any }, key: string, fail: boolean): Program<unknown> {
  return yield inTransaction(function* (tx): Program<unknown> {
    yield runOf(tx.insert(tables.appSettings).values({ key, value: { n: 1 } }))
    const [row] = yield rowsOf(tx.select().from(tables.appSettings).where(eq(tables.appSettings.key, key)))
    if (fail) throw new Error('the program failed')
    return row.value
  })
}

describe.each(storeFactories)('a program of statements ($name)', ({ name, open }) => {
  let store: Store
  afterEach(async () => { await store?.close() })

  const setup = async (): Promise<{ perform: Perform, tables: { appSettings: any } }> => {
    store = await open()
    const handle = (store as Store & { handle: DbHandle | PgHandle }).handle
    return name === 'SQLite'
      ? { perform: performOnSqlite(handle.db), tables: liteSchema }
      : { perform: performOnPostgres(handle.db, (handle as PgHandle).ready), tables: pgSchema }
  }

  it('runs its statements in order in one transaction, answering each one\'s rows; at once on SQLite', async () => {
    const { perform, tables } = await setup()
    const answer = perform(db => (function* () {
      const found: unknown = yield* setThenRead(tables, 'k', false)
      const [again] = yield rowsOf(db.select().from(tables.appSettings).where(eq(tables.appSettings.key, 'k')))
      return [found, again.value]
    })())
    // SQLite's store methods stay synchronous: the answer is there, not a promise of it.
    if (name === 'SQLite') expect(answer).not.toBeInstanceOf(Promise)
    expect(await answer).toEqual([{ n: 1 }, { n: 1 }])
  })

  it('rolls the transaction back when the program throws, and throws the same error', async () => {
    const { perform, tables } = await setup()
    await expect(Promise.resolve().then(() => perform(() => setThenRead(tables, 'gone', true)))).rejects.toThrow('the program failed')
    expect(await store.settings.get('gone')).toBeNull()
  })
})
