import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { bossDb, bossQuery } from '../../../db/pg/boss-statements'
import { startPostgres, type TestPostgres } from '../../support/postgres'

let postgres: TestPostgres
beforeAll(async () => { postgres = await startPostgres() }, 60_000)
afterAll(async () => { await postgres?.stop() })

describe('pg-boss statements, prepared once per connection', () => {
  it('name each text with values once, the same name for the same text; a text without values (several statements) goes as it is', () => {
    const fetch = 'select $1::int + 1 as n'
    const first = bossQuery(fetch, [1])
    expect(first.name).toMatch(/^judgeflow_boss_\d+$/)
    expect(bossQuery(fetch, [2])).toEqual({ name: first.name, text: fetch, values: [2] })
    expect(bossQuery('select $1::int + 2 as n', [1]).name).not.toBe(first.name)
    expect(bossQuery('begin; select 1; commit', [])).toEqual({ text: 'begin; select 1; commit' })
    expect(bossQuery('select 1')).toEqual({ text: 'select 1' })
  })

  it('run as prepared statements of the connection, and answer as before', async () => {
    const pool = new pg.Pool({ connectionString: await postgres.database(), max: 1 })
    try {
      const db = bossDb(pool)
      const text = 'select $1::text || \'!\' as said'
      expect((await db.executeSql(text, ['one'])).rows).toEqual([{ said: 'one!' }])
      expect((await db.executeSql(text, ['two'])).rows).toEqual([{ said: 'two!' }])
      const { rows } = await pool.query<{ name: string, statement: string }>('select name, statement from pg_prepared_statements')
      expect(rows).toEqual([{ name: bossQuery(text, ['x']).name, statement: text }])
      // Several statements in one text, without values: sent as a simple query.
      expect((await db.executeSql('select 1 as a; select 2 as b') as unknown as pg.QueryResult[]).map(r => r.rows)).toEqual([[{ a: 1 }], [{ b: 2 }]])
    }
    finally {
      await pool.end()
    }
  })
})
