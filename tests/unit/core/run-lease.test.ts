import { spawnSync } from 'node:child_process'
import { hostname } from 'node:os'
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest'
import { holderIsGone, leaseIsFree, resumeDecision, RunService, type Store } from '../../../core'
import type { ResumeProgress, RunEventRow } from '../../../db'
import type { RunEvent } from '../../../engine'
import { ORPHANS_PER_PASS } from '../../../db/pg/runs'
import { LeaseKeeper } from '../../../core/runs/leases'
import { runEnded } from '../../support/runs'
import { storeFactories, stopStores } from '../../support/stores'
import { sleepChain as chain, sleepStep, testDeps } from '../../support/workflows'

/** The run service's resume rule with JUDGEFLOW_RUN_MAX_RESUMES=2. */
const resumeAtMost2 = (run: ResumeProgress, lastStepAt: number | null) => resumeDecision(run, lastStepAt, 2)

const T0 = 1_000_000
const LEASE_MS = 10_000
const { step } = sleepStep()
const { options } = testDeps([step])

const committed = (nodeId: string, finishedAt: number, output: unknown, input?: unknown): RunEvent =>
  ({ type: 'step.succeeded', at: finishedAt, step: { node_id: nodeId, attempt: 1, status: 'succeeded', input, output, started_at: T0, finished_at: finishedAt } })

afterAll(stopStores)

describe.each(storeFactories)('run leases ($name)', ({ name, open }) => {
  let store: Store
  const services: RunService[] = []
  afterEach(async () => {
    for (const service of services.splice(0)) await service.drain(0)
    await store?.close()
  })

  function service(clock: { now: number }, extra: { owner?: string, maxResumes?: number } = {}) {
    const created = new RunService({ store, registry: options.registry, providers: options.providers, leaseMs: LEASE_MS, now: () => clock.now, ...extra })
    services.push(created)
    return created
  }

  /** A run some process was executing when it stopped: `first` committed (unless `upTo` is `in`), `second` started. */
  async function leftRunning(owner: string, expiresAt: number, ms = 0, upTo: 'in' | 'second' = 'second') {
    const run = await store.runs.create({ definition: chain(ms), status: 'queued', owner })
    await store.leases.renew({ owner, expiresAt })
    await store.runs.markStarted(run.id, owner)
    await store.runs.write(run.id, [committed('in', T0, {}, {})])
    if (upTo === 'in') return run
    await store.runs.write(run.id, [committed('first', T0 + 1, { value: 'one' }, { ms: 0, value: 'one' })])
    await store.runs.write(run.id, [{ type: 'step.started', at: T0 + 2, node_id: 'second', attempt: 1, input: {} }])
    return run
  }

  /** Another process, `owner`, takes over the runs free at `now`, as its run service would. */
  async function takenOverBy(owner: string, now: number) {
    await store.leases.renew({ owner, expiresAt: now + LEASE_MS })
    return store.leases.claimOrphans({
      owner, now, lease: { owner, expiresAt: now + LEASE_MS }, resume: resumeAtMost2, skip: () => false, isFree: lease => leaseIsFree(lease, owner, now),
    })
  }

  const settled = (runId: string, by: RunService) => runEnded(by, id => store.runs.get(id), runId)

  /** Whether the run has started its long `second` step (nothing more is written until it ends). */
  const inSecondStep = async (runId: string) => (await store.runs.eventsAfter(runId)).some(e => e.type === 'step.started' && e.nodeId === 'second')

  /** A process on `clock` executing a run that is now in its 1.5 s `second` step. */
  async function runInSecondStep(clock: { now: number }) {
    const here = service(clock)
    const run = await here.start({ definition: chain(1500) })
    await vi.waitFor(async () => expect(await inSecondStep(run.id)).toBe(true))
    return { here, run }
  }

  it('leaves a run whose holder still has a live lease, and takes it over once the lease has expired', async () => {
    store = await open()
    const clock = { now: T0 }
    const run = await leftRunning('another-host:4242:abc', T0 + LEASE_MS)
    const here = service(clock)
    expect((await here.resumeUnfinished()).resumed).toEqual([])
    clock.now = T0 + LEASE_MS - 1
    expect((await here.resumeUnfinished()).resumed).toEqual([])
    clock.now = T0 + LEASE_MS
    expect((await here.resumeUnfinished()).resumed).toEqual([run.id])
    expect(await store.runs.get(run.id)).toMatchObject({ leaseOwner: here.owner, resumesWithoutProgress: 1 })
    expect(await settled(run.id, here)).toMatchObject({ status: 'succeeded', output: 'two' })
  })

  it('takes over a long list of orphaned queued runs oldest first, on PostgreSQL a bounded pass at a time', async () => {
    store = await open()
    const owner = 'another-host:4242:web'
    await store.leases.renew({ owner, expiresAt: T0 })
    const queued: string[] = []
    for (let i = 0; i < ORPHANS_PER_PASS + 30; i++) queued.push((await store.runs.create({ definition: chain(0), status: 'queued', owner })).id)
    const first = (await takenOverBy('me', T0 + 1)).map(t => t.run.id)
    const bounded = name === 'PostgreSQL'
    expect(first).toEqual(bounded ? queued.slice(0, ORPHANS_PER_PASS) : queued)
    const second = (await takenOverBy('me', T0 + 2)).map(t => t.run.id)
    expect(second).toEqual(bounded ? queued.slice(ORPHANS_PER_PASS) : [])
    expect(await takenOverBy('me', T0 + 3)).toEqual([])
  })

  it('does not wait for the lease of a holder on this host whose process is gone, but does for one whose pid is alive', async () => {
    store = await open()
    const gonePid = spawnSync(process.execPath, ['-e', '0']).pid
    expect(holderIsGone(`${hostname()}:${gonePid}:old`, 'me')).toBe(true)
    // An earlier process that had this process's pid (a restarted container) is gone too.
    expect(holderIsGone(`${hostname()}:${process.pid}:old`, 'me')).toBe(true)
    // A live pid proves nothing (a zombie, a reused pid): only the lease counts. Nor can another host be checked.
    expect(holderIsGone(`${hostname()}:${process.ppid}:zombie`, 'me')).toBe(false)
    expect(holderIsGone(`another-host:${gonePid}:x`, 'me')).toBe(false)
    const clock = { now: T0 }
    const gone = await leftRunning(`${hostname()}:${gonePid}:old`, T0 + LEASE_MS)
    const zombie = await leftRunning(`${hostname()}:${process.ppid}:zombie`, T0 + LEASE_MS)
    expect((await service(clock).resumeUnfinished()).resumed).toEqual([gone.id])
    expect((await store.runs.get(zombie.id))!.leaseOwner).toBe(`${hostname()}:${process.ppid}:zombie`)
  })

  it('renews the lease of all its runs in one heartbeat, and stops a run another process took over while it stalled, without writing to it', async () => {
    store = await open()
    const clock = { now: T0 }
    const here = service(clock)
    const runs = await Promise.all([here.start({ definition: chain(60_000) }), here.start({ definition: chain(60_000) })])
    // Both runs are in their long step: nothing more is written until it ends.
    await vi.waitFor(async () => expect((await Promise.all(runs.map(run => inSecondStep(run.id)))).every(Boolean)).toBe(true))
    clock.now = T0 + 5_000
    await here.heartbeat()
    for (const run of runs) expect((await store.leases.get(run.id))!.leaseExpiresAt).toBe(T0 + 5_000 + LEASE_MS)

    // This process stalls past its lease; meanwhile another one takes its runs over, and one of them is given back to it.
    const [taken, kept] = runs as [typeof runs[0], typeof runs[0]]
    clock.now = T0 + 5_000 + LEASE_MS
    expect((await takenOverBy('another-host:1:new', clock.now)).map(t => t.run.id).sort()).toEqual(runs.map(run => run.id).sort())
    await store.leases.renew({ owner: 'another-host:1:new', expiresAt: clock.now + 99_000 })
    await store.leases.claimQueued(kept.id, {
      owner: here.owner, now: clock.now, lease: { owner: here.owner, expiresAt: clock.now + LEASE_MS }, resume: resumeAtMost2, isFree: () => true,
    })
    const eventsBefore = (await store.runs.eventsAfter(taken.id)).length
    await here.heartbeat()
    await vi.waitFor(() => expect(here.isActive(taken.id)).toBe(false))
    expect(here.isActive(kept.id)).toBe(true)
    expect(await store.runs.get(taken.id)).toMatchObject({ status: 'running', leaseOwner: 'another-host:1:new' })
    expect(await store.runs.eventsAfter(taken.id)).toHaveLength(eventsBefore)
  })

  it('checks its lease before a write after a stall the heartbeat did not see: a run taken over meanwhile gets no more writes from it', async () => {
    store = await open()
    const clock = { now: T0 }
    const { here, run } = await runInSecondStep(clock)
    // The process stalls in the step past its lease, and no heartbeat runs; another process takes the run over.
    clock.now = T0 + 2 * LEASE_MS
    expect((await takenOverBy('another-host:1:new', clock.now)).map(t => t.run.id)).toEqual([run.id])
    const eventsBefore = (await store.runs.eventsAfter(run.id)).length
    // The step ends here: its write finds the lease lapsed, renews it, learns the run is lost, and writes nothing.
    await vi.waitFor(() => expect(here.isActive(run.id)).toBe(false), { timeout: 5000 })
    expect(await store.runs.get(run.id)).toMatchObject({ status: 'running', leaseOwner: 'another-host:1:new' })
    expect(await store.runs.eventsAfter(run.id)).toHaveLength(eventsBefore)
  })

  it('fences every write: a run taken over while this process still believes its lease holds gets no more writes from it', async () => {
    store = await open()
    const clock = { now: T0 }
    const { here, run } = await runInSecondStep(clock)
    // No stall: this process's lease is live and it has no reason to look. Another process takes the
    // run all the same (it judged the holder gone), between this process's check and its write.
    const other = 'another-host:1:new'
    await store.leases.renew({ owner: other, expiresAt: clock.now + 99_000 })
    const [taken] = await store.leases.claimOrphans({
      owner: other, now: clock.now, lease: { owner: other, expiresAt: clock.now + 99_000 }, resume: resumeAtMost2, skip: () => false, isFree: () => true,
    })
    expect(taken!.run.id).toBe(run.id)
    const eventsBefore = (await store.runs.eventsAfter(run.id)).length
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {})
    try {
      // The step ends here: the store refuses its write, and the run stops here.
      await vi.waitFor(() => expect(here.isActive(run.id)).toBe(false), { timeout: 5000 })
      expect(logged).toHaveBeenCalledWith(expect.stringContaining(`run ${run.id} was taken over by another process`))
    }
    finally {
      logged.mockRestore()
    }
    expect(await store.runs.get(run.id)).toMatchObject({ status: 'running', leaseOwner: other })
    expect(await store.runs.eventsAfter(run.id)).toHaveLength(eventsBefore)
    expect((await store.runs.steps(run.id)).find(s => s.nodeId === 'second')).toMatchObject({ status: 'running' })
  })

  it('marks failed, with the reason, a run resumed twice in a row without committing a step', async () => {
    store = await open()
    const clock = { now: T0 }
    // `second` never finishes: each resume hangs, as if the process had crashed or hung there.
    const run = await leftRunning('another-host:1:first', T0, 60_000)
    for (const attempt of [1, 2]) {
      clock.now += LEASE_MS
      // A clock of its own: its heartbeat, while its resume hangs, must not renew its lease past the next one's start.
      expect((await service({ now: clock.now }).resumeUnfinished()).resumed).toEqual([run.id])
      expect((await store.runs.get(run.id))!.resumesWithoutProgress).toBe(attempt)
      // Hanging in `second` again (a run being written to is not claimed at that moment: it is taken at a later look).
      await vi.waitFor(async () => expect((await store.runs.eventsAfter(run.id)).filter(e => e.type === 'step.started' && e.nodeId === 'second')).toHaveLength(attempt + 1))
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
    store = await open()
    // Resumed twice without progress past `in`, by processes that died at once...
    const run = await leftRunning('another-host:1:first', T0, 0, 'in')
    await takenOverBy('another-host:2:second', T0)
    await takenOverBy('another-host:3:third', T0 + LEASE_MS)
    expect(await store.runs.get(run.id)).toMatchObject({ resumesWithoutProgress: 2, lastStepAtResume: T0 })
    // ...then the third committed `first` before it died too.
    await store.runs.write(run.id, [committed('first', T0 + 1, { value: 'one' }, { ms: 0, value: 'one' })])
    const here = service({ now: T0 + 2 * LEASE_MS }, { maxResumes: 2 })
    expect((await here.resumeUnfinished()).resumed).toEqual([run.id])
    expect(await store.runs.get(run.id)).toMatchObject({ resumesWithoutProgress: 1, lastStepAtResume: T0 + 1 })
    expect(await settled(run.id, here)).toMatchObject({ status: 'succeeded' })
  })

  it('lets a person mark interrupted a run no live process holds, and refuses while its lease is live', async () => {
    store = await open()
    const clock = { now: T0 }
    const run = await leftRunning('another-host:1:gone', T0 + LEASE_MS)
    const here = service(clock)
    await expect(here.cancelOrInterrupt(run.id)).rejects.toMatchObject({ code: 'NOT_CANCELLABLE', message: expect.stringContaining('is being executed by another judgeflow process') })
    clock.now = T0 + LEASE_MS
    const heard: RunEventRow[] = []
    here.subscribe(run.id, event => heard.push(event))
    expect(await here.cancelOrInterrupt(run.id)).toBe('interrupted')
    expect(await store.runs.get(run.id)).toMatchObject({ status: 'interrupted', error: { message: 'the run was marked interrupted by a person: its process (another-host:1) is gone or stopped renewing its lease' } })
    expect(heard.map(e => e.type)).toEqual(['run.finished'])
    expect((await here.resumeUnfinished()).resumed).toEqual([])
    await expect(here.cancelOrInterrupt(run.id)).rejects.toMatchObject({ code: 'NOT_CANCELLABLE', message: `run "${run.id}" is interrupted and cannot be cancelled` })
  })

  it('ends the same way a run a dataset run or a round cancels: one path, false only while a live process holds it', async () => {
    store = await open()
    const clock = { now: T0 }
    const run = await leftRunning('another-host:1:gone', T0 + LEASE_MS)
    const here = service(clock)
    expect(await here.cancelAnywhere(run.id)).toBe(false)
    expect(await store.runs.get(run.id)).toMatchObject({ status: 'running' })
    clock.now = T0 + LEASE_MS
    expect(await here.cancelAnywhere(run.id)).toBe(true)
    expect(await store.runs.get(run.id)).toMatchObject({ status: 'interrupted' })
    expect(await here.cancelAnywhere(run.id)).toBe(false)
  })
})

describe('the lease heartbeat', () => {
  it('never runs a beat beside one still under way: a slow takeover is not started again at each beat', async () => {
    let release!: () => void
    const onBeat = vi.fn(() => new Promise<void>((resolve) => { release = resolve }))
    const renew = vi.fn(async () => {})
    const keeper = new LeaseKeeper({ renew, get: async () => null } as never, { owner: 'me', leaseMs: LEASE_MS, now: () => T0, held: () => ['run'], lost: () => {}, onBeat })
    const first = keeper.beat()
    await vi.waitFor(() => expect(onBeat).toHaveBeenCalledTimes(1))
    const second = keeper.beat()
    expect(second).toBe(first)
    release()
    await first
    expect(onBeat).toHaveBeenCalledTimes(1)
    expect(renew).toHaveBeenCalledTimes(1)
    // Once it has ended, the next beat is a new one.
    const third = keeper.beat()
    await vi.waitFor(() => expect(onBeat).toHaveBeenCalledTimes(2))
    release()
    await third
  })
})
