import { afterAll, afterEach, describe, expect, it } from 'vitest'
import type { Store } from '../../../core'
import { leaseLetsGo, type Lease, type RunRow } from '../../../core/rows'
import { sqliteLeaseTables, type DbHandle } from '../../../db'
import { claimRun } from '../../../db/run-takeover'
import { pgLeaseTables } from '../../../db/pg/runs'
import { inTransaction, runOnPostgres, runOnSqlite, type Program } from '../../../db/statement-program'
import type { PgHandle } from '../../../db/pg/client'
import { storeFactories, stopStores } from '../../support/stores'
import { sleepChain as chain } from '../../support/workflows'

const T0 = 1_000_000
const LEASE_MS = 10_000
const SLOW = 'another-host:1:slow'

afterAll(stopStores)

describe('whether a holder lets its run go (leaseLetsGo)', () => {
  const never = () => false
  it('is true with no holder, a lapsed or missing lease, or a holder known gone; false while a live lease holds', () => {
    expect(leaseLetsGo({ leaseOwner: null, leaseExpiresAt: null }, T0, never)).toBe(true)
    expect(leaseLetsGo({ leaseOwner: SLOW, leaseExpiresAt: null }, T0, never)).toBe(true)
    expect(leaseLetsGo({ leaseOwner: SLOW, leaseExpiresAt: T0 }, T0, never)).toBe(true)
    expect(leaseLetsGo({ leaseOwner: SLOW, leaseExpiresAt: T0 + 1 }, T0, never)).toBe(false)
    expect(leaseLetsGo({ leaseOwner: SLOW, leaseExpiresAt: T0 + 1 }, T0, owner => owner === SLOW)).toBe(true)
  })
})

/** The same claim-and-resume transaction on both stores: one implementation, one contract. */
describe.each(storeFactories)('claiming a run ($name)', ({ name, open }) => {
  let store: Store
  afterEach(async () => { await store?.close() })

  /** The shared claim, run in its own transaction on this store's database. */
  function claim(id: string, lease: Lease, now: number, gone: string | null = null): Promise<RunRow | null> {
    const program = function* (): Program<RunRow | null> {
      return (yield inTransaction(tx => claimRun(name === 'SQLite' ? sqliteLeaseTables : pgLeaseTables, tx, id, lease, now, gone))) as RunRow | null
    }
    const handle = (store as Store & { handle: DbHandle | PgHandle }).handle
    return name === 'SQLite' ? Promise.resolve(runOnSqlite(handle.db, program())) : runOnPostgres(handle.db, program())
  }

  /** A run `SLOW` started, its lease holding until `expiresAt`, with one committed step finished at T0 + 1. */
  async function heldBySlow(expiresAt: number) {
    const run = await store.runs.create({ definition: chain(0), status: 'queued', owner: SLOW })
    await store.leases.renew({ owner: SLOW, expiresAt })
    await store.runs.markStarted(run.id, SLOW)
    await store.runs.write(run.id, [{ type: 'step.succeeded', at: T0 + 1, step: { node_id: 'in', attempt: 1, status: 'succeeded', output: {}, started_at: T0, finished_at: T0 + 1 } }])
    return run
  }

  it('keeps the run of a holder that renewed its lease after it was judged expired, and takes it once that lease lapses', async () => {
    store = await open()
    const run = await heldBySlow(T0 + LEASE_MS)
    // Judged expired at T0 + LEASE_MS, but renewed before the claim: the claim takes nothing.
    await store.leases.renew({ owner: SLOW, expiresAt: T0 + 2 * LEASE_MS })
    expect(await claim(run.id, { owner: 'me', expiresAt: T0 + 2 * LEASE_MS }, T0 + LEASE_MS)).toBeNull()
    expect(await store.leases.get(run.id)).toMatchObject({ leaseOwner: SLOW })
    expect(await claim(run.id, { owner: 'me', expiresAt: T0 + 3 * LEASE_MS }, T0 + 2 * LEASE_MS)).toMatchObject({ id: run.id, leaseOwner: 'me' })
    expect(await store.leases.get(run.id)).toMatchObject({ leaseOwner: 'me' })
  })

  it('takes a run whose holder is known to be gone while its lease still holds, and never a finished run', async () => {
    store = await open()
    const run = await heldBySlow(T0 + LEASE_MS)
    expect(await claim(run.id, { owner: 'me', expiresAt: T0 + LEASE_MS }, T0, SLOW)).toMatchObject({ leaseOwner: 'me' })
    const result = { status: 'succeeded' as const, verdict: null, output: null, error: null, steps: {}, duration_ms: 1 }
    await store.runs.write(run.id, [{ type: 'run.finished', at: T0 + 2, result }], 'me')
    expect(await claim(run.id, { owner: 'other', expiresAt: T0 + LEASE_MS }, T0 + 2 * LEASE_MS)).toBeNull()
  })

  it('counts a resume in the claim\'s transaction and answers the run as stored; a run given up keeps its count', async () => {
    store = await open()
    const options = (owner: string, resume: () => { resumesWithoutProgress: number } | { giveUp: string }) =>
      ({ owner, now: T0 + LEASE_MS, lease: { owner, expiresAt: T0 + 2 * LEASE_MS }, isFree: () => true, resume })
    const resumed = await heldBySlow(T0)
    const seen: Array<[number, number | null]> = []
    const takeover = await store.leases.claimQueued(resumed.id, options('me', () => ({ resumesWithoutProgress: 3 })))
    expect(takeover).toMatchObject({ run: { id: resumed.id, leaseOwner: 'me', resumesWithoutProgress: 3, lastStepAtResume: T0 + 1 } })
    expect(takeover!.giveUp).toBeUndefined()
    expect(await store.runs.get(resumed.id)).toMatchObject({ leaseOwner: 'me', resumesWithoutProgress: 3, lastStepAtResume: T0 + 1 })
    const givenUp = await heldBySlow(T0)
    const [taken] = await store.leases.claimOrphans({ ...options('you', () => ({ giveUp: 'no more' })), skip: () => false, resume: (run, lastStepAt) => {
      seen.push([run.resumesWithoutProgress, lastStepAt])
      return { giveUp: 'no more' }
    } })
    expect(taken).toMatchObject({ run: { id: givenUp.id, leaseOwner: 'you' }, giveUp: 'no more' })
    expect(seen).toEqual([[0, T0 + 1]])
    expect(await store.runs.get(givenUp.id)).toMatchObject({ leaseOwner: 'you', resumesWithoutProgress: 0, lastStepAtResume: null })
  })
})
