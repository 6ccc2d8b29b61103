import { sql } from 'drizzle-orm'
import { afterEach, describe, expect, it } from 'vitest'
import { createRun, openDatabase, type DbHandle } from '../../../db'
import { direct } from '../../../db/prepared'
import { stepRuns } from '../../../db/schema'
import { qualityGate } from '../../support/workflows'

let handle: DbHandle | undefined
afterEach(() => handle?.close())

const COLUMNS = ['runId', 'nodeId', 'attempt', 'status', 'input', 'output', 'cached', 'startedAt'] as const
const placeholders = Object.fromEntries(COLUMNS.map(column => [column, sql.placeholder(column)]))

describe('direct statements', () => {
  it('store exactly what drizzle stores for the same values: JSON columns stringified (null included), booleans as 0/1', () => {
    handle = openDatabase(':memory:')
    const { db } = handle
    const run = createRun(db, { definition: qualityGate(['a'], [true]), input: {} })
    const throughDrizzle = db.insert(stepRuns).values(placeholders as never).prepare()
    const straight = direct(db, 'test.step', () => db.insert(stepRuns).values(placeholders as never))
    const rows = [
      { status: 'succeeded', input: { text: 'é "quoted"', list: [1, 2] }, output: 'plain', cached: true, startedAt: 5 },
      { status: 'running', input: null, output: null, cached: null, startedAt: null },
      { status: 'failed', input: [], output: 0, cached: false, startedAt: 0 },
    ]
    rows.forEach((row, i) => {
      throughDrizzle.run({ runId: run.id, nodeId: `drizzle-${i}`, attempt: 1, ...row })
      straight.run({ runId: run.id, nodeId: `direct-${i}`, attempt: 1, ...row })
    })
    const stored = db.$client.prepare('SELECT * FROM step_runs WHERE run_id = ? ORDER BY node_id').all(run.id) as Record<string, unknown>[]
    const bare = (row: Record<string, unknown>) => { const { id: _id, node_id: _node, ...rest } = row; return rest }
    for (let i = 0; i < rows.length; i++) {
      const a = stored.find(r => r.node_id === `drizzle-${i}`)!
      const b = stored.find(r => r.node_id === `direct-${i}`)!
      expect(bare(b)).toEqual(bare(a))
    }
    // Null in a JSON column is drizzle's "null" text, and a null boolean its 0: read back the same way.
    expect(stored.find(r => r.node_id === 'direct-1')).toMatchObject({ input: 'null', cached: 0 })
  })

  it('answer SQLite\'s row from get, and refuse a call that leaves a placeholder without a value, naming it', () => {
    handle = openDatabase(':memory:')
    const { db } = handle
    const run = createRun(db, { definition: qualityGate(['a'], [true]), input: {} })
    const find = direct(db, 'test.find', () => db.select({ id: stepRuns.id }).from(stepRuns).where(sql`${stepRuns.runId} = ${sql.placeholder('runId')} and ${stepRuns.nodeId} = ${sql.placeholder('nodeId')}`))
    expect(find.get({ runId: run.id, nodeId: 'none' })).toBeUndefined()
    db.insert(stepRuns).values({ runId: run.id, nodeId: 'x', attempt: 1, status: 'running' }).run()
    expect(find.get({ runId: run.id, nodeId: 'x' })).toEqual({ id: expect.any(Number) })
    expect(() => find.get({ runId: run.id })).toThrow(/statement "test\.find": no value for placeholder "nodeId"/)
  })
})
