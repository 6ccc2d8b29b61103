import { spawnSync } from 'node:child_process'
import { hostname } from 'node:os'
import { eq } from 'drizzle-orm'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { holderIsGone, RunService } from '../../../core'
import { claimRun, createRun, createSqliteStore, getRun, getRunLease, listEventsAfter, markRunStarted, openDatabase, renewLease, storeEvent, type DbHandle, type RunEventRow } from '../../../db'
import { runs as runsTable } from '../../../db/schema'
import { runEnded } from '../../support/runs'
import { sleepStep, testDeps } from '../../support/workflows'

let handle: DbHandle
const services: RunService[] = []
afterEach(async () => {
  for (const service of services.splice(0)) await service.drain(0)
  handle?.close()
})

const T0 = 1_000_000
const LEASE_MS = 10_000
const { step } = sleepStep()
const { options } = testDeps([step])
/** in → first (quick) → second (sleeps `ms`) → out. */
const chain = (ms: number) => ({
  name: 'chain',
  nodes: [
    { id: 'in', type: 'input' },
    { id: 'first', type: 'sleep', config: { ms: 0, value: 'one' } },
    { id: 'second', type: 'sleep', config: { ms, value: 'two' } },
    { id: 'out', type: 'output', config: { value: '{{steps.second.value}}' } },
  ],
  edges: [{ from: 'in', to: 'first' }, { from: 'first', to: 'second' }, { from: 'second', to: 'out' }],
})

function service(clock: { now: number }, extra: { owner?: string, maxResumes?: number } = {}) {
  const created = new RunService({
    store: createSqliteStore(handle), registry: options.registry, providers: options.providers,
    leaseMs: LEASE_MS, now: () => clock.now, ...extra,
  })
  services.push(created)
  return created
}

/** A run some process was executing when it stopped: `first` committed, `second` started. */
function leftRunning(owner: string, expiresAt: number, ms = 0) {
  const run = createRun(handle.db, { definition: chain(ms), status: 'queued' }, T0)
  markRunStarted(handle.db, run.id, owner, T0)
  renewLease(handle.db, { owner, expiresAt })
  storeEvent(handle.db, run.id, { type: 'step.succeeded', at: T0, step: { node_id: 'in', attempt: 1, status: 'succeeded', output: {}, started_at: T0, finished_at: T0 } })
  storeEvent(handle.db, run.id, { type: 'step.succeeded', at: T0, step: { node_id: 'first', attempt: 1, status: 'succeeded', input: { ms: 0, value: 'one' }, output: { value: 'one' }, started_at: T0, finished_at: T0 + 1 } })
  storeEvent(handle.db, run.id, { type: 'step.started', at: T0 + 2, node_id: 'second', attempt: 1, input: {} })
  return run
}

const settled = (runId: string, by: RunService) => runEnded(by, id => getRun(handle.db, id), runId)

describe('run leases', () => {
  it('leaves a run whose holder still has a live lease, and takes it over once the lease has expired', async () => {
    handle = openDatabase(':memory:')
    const clock = { now: T0 }
    const run = leftRunning('another-host:4242:abc', T0 + LEASE_MS)
    const here = service(clock)
    expect((await here.resumeUnfinished()).resumed).toEqual([])
    clock.now = T0 + LEASE_MS - 1
    expect((await here.resumeUnfinished()).resumed).toEqual([])
    clock.now = T0 + LEASE_MS
    expect((await here.resumeUnfinished()).resumed).toEqual([run.id])
    expect(getRun(handle.db, run.id)).toMatchObject({ leaseOwner: here.owner, resumesWithoutProgress: 1 })
    expect(await settled(run.id, here)).toMatchObject({ status: 'succeeded', output: 'two' })
  })

  it('does not wait for the lease of a holder on this host whose process is gone, but does for one whose pid is alive', async () => {
    handle = openDatabase(':memory:')
    const gonePid = spawnSync(process.execPath, ['-e', '0']).pid
    expect(holderIsGone(`${hostname()}:${gonePid}:old`, 'me')).toBe(true)
    // An earlier process that had this process's pid (a restarted container) is gone too.
    expect(holderIsGone(`${hostname()}:${process.pid}:old`, 'me')).toBe(true)
    // A live pid proves nothing (a zombie, a reused pid): only the lease counts. Nor can another host be checked.
    expect(holderIsGone(`${hostname()}:${process.ppid}:zombie`, 'me')).toBe(false)
    expect(holderIsGone(`another-host:${gonePid}:x`, 'me')).toBe(false)
    const clock = { now: T0 }
    const gone = leftRunning(`${hostname()}:${gonePid}:old`, T0 + LEASE_MS)
    const zombie = leftRunning(`${hostname()}:${process.ppid}:zombie`, T0 + LEASE_MS)
    expect((await service(clock).resumeUnfinished()).resumed).toEqual([gone.id])
    expect(getRun(handle.db, zombie.id)!.leaseOwner).toBe(`${hostname()}:${process.ppid}:zombie`)
  })

  it('renews the lease of all its runs in one heartbeat, and stops a run another process took over while it stalled, without writing to it', async () => {
    handle = openDatabase(':memory:')
    const clock = { now: T0 }
    const here = service(clock)
    const runs = await Promise.all([here.start({ definition: chain(60_000) }), here.start({ definition: chain(60_000) })])
    // Both runs are in their long step: nothing more is written until it ends.
    const inSecondStep = (runId: string) => listEventsAfter(handle!.db, runId).some(e => e.type === 'step.started' && e.nodeId === 'second')
    await vi.waitFor(() => expect(runs.every(run => inSecondStep(run.id))).toBe(true))
    clock.now = T0 + 5_000
    await here.heartbeat()
    for (const run of runs) expect(getRunLease(handle.db, run.id)!.leaseExpiresAt).toBe(T0 + 5_000 + LEASE_MS)

    // This process stalls past its lease; meanwhile another one takes one of its runs over.
    const [taken, kept] = runs as [typeof runs[0], typeof runs[0]]
    clock.now = T0 + 5_000 + LEASE_MS
    renewLease(handle.db, { owner: 'another-host:1:new', expiresAt: T0 + 99_000 })
    handle.db.update(runsTable).set({ leaseOwner: 'another-host:1:new' }).where(eq(runsTable.id, taken.id)).run()
    const eventsBefore = listEventsAfter(handle.db, taken.id).length
    await here.heartbeat()
    await vi.waitFor(() => expect(here.isActive(taken.id)).toBe(false))
    expect(here.isActive(kept.id)).toBe(true)
    expect(getRun(handle.db, taken.id)).toMatchObject({ status: 'running', leaseOwner: 'another-host:1:new' })
    expect(listEventsAfter(handle.db, taken.id)).toHaveLength(eventsBefore)
  })

  it('keeps the runs of a process that renewed its lease before another one could claim them', () => {
    handle = openDatabase(':memory:')
    const run = leftRunning('another-host:1:slow', T0 + LEASE_MS)
    // Judged expired at T0 + LEASE_MS, but renewed before the claim: the claim takes nothing.
    renewLease(handle.db, { owner: 'another-host:1:slow', expiresAt: T0 + 2 * LEASE_MS })
    expect(claimRun(handle.db, run.id, { owner: 'me', expiresAt: T0 + 2 * LEASE_MS }, T0 + LEASE_MS)).toBe(false)
    expect(claimRun(handle.db, run.id, { owner: 'me', expiresAt: T0 + 3 * LEASE_MS }, T0 + 2 * LEASE_MS)).toBe(true)
    expect(getRunLease(handle.db, run.id)).toMatchObject({ leaseOwner: 'me' })
  })

  it('marks failed, with the reason, a run resumed twice in a row without committing a step', async () => {
    handle = openDatabase(':memory:')
    const clock = { now: T0 }
    // `second` never finishes: each resume hangs, as if the process had crashed or hung there.
    const run = leftRunning('another-host:1:first', T0, 60_000)
    for (const attempt of [1, 2]) {
      clock.now += LEASE_MS
      expect((await service(clock).resumeUnfinished()).resumed).toEqual([run.id])
      expect(getRun(handle.db, run.id)!.resumesWithoutProgress).toBe(attempt)
    }
    clock.now += LEASE_MS
    const last = service(clock)
    const heard: RunEventRow[] = []
    last.subscribe(run.id, event => heard.push(event))
    expect(await last.resumeUnfinished()).toEqual({ resumed: [], interrupted: [], failed: [run.id] })
    const failed = await settled(run.id, last)
    expect(failed.status).toBe('failed')
    expect(failed.error).toMatchObject({ code: 'RESUME_LIMIT', message: expect.stringContaining('resumed 2 times after a restart without committing a new step') })
    expect(heard.map(e => e.type)).toEqual(['run.finished'])
  })

  it('counts resumes afresh once a resumed run commits a new step', async () => {
    handle = openDatabase(':memory:')
    const clock = { now: T0 + LEASE_MS }
    const run = leftRunning('another-host:1:first', T0)
    handle.db.update(runsTable).set({ resumesWithoutProgress: 2, lastStepAtResume: T0 }).where(eq(runsTable.id, run.id)).run()
    const here = service(clock, { maxResumes: 2 })
    expect((await here.resumeUnfinished()).resumed).toEqual([run.id])
    expect(getRun(handle.db, run.id)).toMatchObject({ resumesWithoutProgress: 1, lastStepAtResume: T0 + 1 })
    expect(await settled(run.id, here)).toMatchObject({ status: 'succeeded' })
  })

  it('lets a person mark interrupted a run no live process holds, and refuses while its lease is live', async () => {
    handle = openDatabase(':memory:')
    const clock = { now: T0 }
    const run = leftRunning('another-host:1:gone', T0 + LEASE_MS)
    const here = service(clock)
    await expect(here.cancelOrInterrupt(run.id)).rejects.toMatchObject({ code: 'NOT_CANCELLABLE', message: expect.stringContaining('is being executed by another judgeflow process') })
    clock.now = T0 + LEASE_MS
    const heard: RunEventRow[] = []
    here.subscribe(run.id, event => heard.push(event))
    expect(await here.cancelOrInterrupt(run.id)).toBe('interrupted')
    expect(getRun(handle.db, run.id)).toMatchObject({ status: 'interrupted', error: { message: 'the run was marked interrupted by a person: its process (another-host:1) is gone or stopped renewing its lease' } })
    expect(heard.map(e => e.type)).toEqual(['run.finished'])
    expect((await here.resumeUnfinished()).resumed).toEqual([])
    await expect(here.cancelOrInterrupt(run.id)).rejects.toMatchObject({ code: 'NOT_CANCELLABLE', message: `run "${run.id}" is interrupted and cannot be cancelled` })
  })
})
