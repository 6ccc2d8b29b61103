import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { openDatabase, type DbHandle } from '../../../db'
import type { Db } from '../../../db/client'
import { AT_ONCE_PER_TURN, GroupCommit, loopSaturation } from '../../../db/group-commit'

let handle: DbHandle
let commits: number
/** The real database, with its transactions counted. */
let counted: Db

beforeEach(() => {
  handle = openDatabase(':memory:')
  handle.db.$client.exec('create table t (n integer not null)')
  commits = 0
  counted = { transaction: (work: () => unknown, config: unknown) => { commits++; return (handle.db.transaction as any)(work, config) } } as unknown as Db
})
afterEach(() => handle.close())

const insert = (n: number) => () => handle.db.$client.prepare('insert into t (n) values (?)').run(n).changes
const rows = () => (handle.db.$client.prepare('select count(*) as c from t').get() as { c: number }).c
const nextTurn = () => new Promise<void>(resolve => setImmediate(resolve))
const idle = () => false
const saturated = () => true

/** Requests arriving at once: callbacks queued together run in one turn of the loop, each followed by its microtasks. */
async function burst(writes: GroupCommit, count: number) {
  const done: Promise<number>[] = []
  await new Promise<void>((resolve) => {
    for (let i = 0; i < count; i++) setImmediate(() => { done.push(writes.write(insert(i))) })
    setImmediate(resolve)
  })
  await Promise.all(done)
}

describe('GroupCommit', () => {
  it('commits the writes one piece of work queued together, before the loop turns', async () => {
    const writes = new GroupCommit(counted, 'normal', idle)
    let turned = false
    setImmediate(() => { turned = true })
    const results = await Promise.all([writes.write(insert(1)), writes.write(insert(2)), writes.write(insert(3))])
    expect(turned).toBe(false)
    expect(results).toEqual([1, 1, 1])
    expect(commits).toBe(1)
    expect(rows()).toBe(3)
  })

  it('while the loop has time to spare, commits the first writes of a turn at once and the rest of the turn\'s together', async () => {
    await burst(new GroupCommit(counted, 'normal', idle), AT_ONCE_PER_TURN + 10)
    expect(rows()).toBe(AT_ONCE_PER_TURN + 10)
    expect(commits).toBe(AT_ONCE_PER_TURN + 1)
  })

  it('once the loop is saturated, commits a burst of writes twice: the first at once, the rest at the turn\'s end', async () => {
    await burst(new GroupCommit(counted, 'normal', saturated), AT_ONCE_PER_TURN + 10)
    expect(rows()).toBe(AT_ONCE_PER_TURN + 10)
    expect(commits).toBe(2)
  })

  it('tells a saturated loop from one with time to spare', async () => {
    const isSaturated = loopSaturation()
    expect(isSaturated()).toBe(false)
    const until = performance.now() + 150
    while (performance.now() < until) { /* the loop held, as under a burst of requests */ }
    expect(isSaturated()).toBe(true)
    await new Promise(resolve => setTimeout(resolve, 250))
    expect(isSaturated()).toBe(false)
  })

  it('lets a chain of awaited writes go on in the same turn rather than one turn a write', async () => {
    const writes = new GroupCommit(counted, 'normal', idle)
    let turns = 0
    let counting = true
    const tick = () => { turns++; if (counting) setImmediate(tick) }
    setImmediate(tick)
    for (let i = 0; i < 40; i++) await writes.write(insert(i))
    counting = false
    expect(rows()).toBe(40)
    // The first few at once, the next at the turn's end, then the first few of the next turn.
    expect(turns).toBeLessThanOrEqual(Math.ceil(40 / (AT_ONCE_PER_TURN + 1)))
  })

  it('with commits synced to disk, waits for the turn\'s end and commits the turn\'s writes once', async () => {
    const writes = new GroupCommit(counted, 'full', idle)
    let turned = false
    setImmediate(() => { turned = true })
    const first = writes.write(insert(1))
    await Promise.resolve()
    const second = writes.write(insert(2))
    await Promise.all([first, second])
    expect(turned).toBe(true)
    expect(commits).toBe(1)
  })

  it('rejects only the write that failed; the others in its transaction commit', async () => {
    const writes = new GroupCommit(counted, 'normal', idle)
    const results = await Promise.allSettled([writes.write(insert(1)), writes.write(() => { throw new Error('bad row') }), writes.write(insert(3))])
    expect(results.map(r => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled'])
    expect((results[1] as PromiseRejectedResult).reason.message).toBe('bad row')
    expect(rows()).toBe(2)
    await nextTurn()
  })
})
