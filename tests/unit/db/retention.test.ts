import { afterAll, afterEach, describe, expect, it, vi } from 'vitest'
import type { Store } from '../../../core'
import type { ChatResponse } from '../../../engine'
import { storeFactories, stopStores } from '../../support/stores'

afterAll(stopStores)

const DAY = 86_400_000
const T0 = Date.UTC(2026, 0, 1)

/** A run of `workflowId` created at `at`, with a step and its events, finished unless `status` says it is still going on. */
async function runAt(store: Store, at: number, workflowId: string | null, status: 'succeeded' | 'queued' | 'running' = 'succeeded') {
  vi.setSystemTime(at)
  const run = await store.runs.create({ definition: { name: 'w' }, workflowId: workflowId ?? undefined, workflowVersion: workflowId ? 1 : undefined })
  if (status === 'queued') return run.id
  await store.runs.markStarted(run.id, 'proc')
  await store.runs.write(run.id, [{ type: 'step.started', at, node_id: 'a', attempt: 1, input: { text: 'x' } }])
  if (status === 'running') return run.id
  await store.runs.write(run.id, [{ type: 'run.finished', at, result: { status: 'succeeded', verdict: 'pass', output: null, error: null, steps: {}, duration_ms: 1 } }])
  return run.id
}

async function remaining(store: Store, ids: string[]) {
  const statuses = await store.runs.statuses(ids)
  return ids.filter(id => statuses.has(id))
}

describe.each(storeFactories)('retention on the $name store', ({ open }) => {
  let store: Store
  afterEach(async () => {
    vi.useRealTimers()
    await store?.close()
  })

  it('deletes finished runs past the age with their steps and events, never a queued or running one, in batches', async () => {
    store = await open()
    vi.useFakeTimers({ toFake: ['Date'] })
    const { id: wf } = await store.workflows.create({ name: 'w' })
    const old = [await runAt(store, T0, wf), await runAt(store, T0 + 1, wf), await runAt(store, T0 + 2, null)]
    const going = [await runAt(store, T0, wf, 'queued'), await runAt(store, T0, wf, 'running')]
    const recent = await runAt(store, T0 + 20 * DAY, wf)
    const result = await store.retention.prune({ now: T0 + 25 * DAY, maxAgeMs: 10 * DAY, batchSize: 2 })
    expect(result.runs).toBe(3)
    expect(await remaining(store, [...old, ...going, recent])).toEqual([...going, recent])
    for (const id of old) {
      expect(await store.runs.steps(id)).toEqual([])
      expect(await store.runs.eventsAfter(id)).toEqual([])
    }
    expect(await store.runs.steps(recent)).toHaveLength(1)
    expect(await store.runs.steps(going[1]!)).toHaveLength(1)
    expect(await store.workflows.get(wf)).not.toBeNull()
  })

  it('keeps the newest runs of each workflow up to the count, and deletes nothing without an age or a count', async () => {
    store = await open()
    vi.useFakeTimers({ toFake: ['Date'] })
    const { id: a } = await store.workflows.create({ name: 'a' })
    const { id: b } = await store.workflows.create({ name: 'b' })
    const runsOfA = [await runAt(store, T0, a), await runAt(store, T0 + 1, a), await runAt(store, T0 + 2, a, 'running'), await runAt(store, T0 + 3, a)]
    const runsOfB = [await runAt(store, T0, b), await runAt(store, T0 + 1, b)]
    expect((await store.retention.prune({ now: T0 + 100 * DAY })).runs).toBe(0)
    expect((await store.retention.prune({ now: T0 + 100 * DAY, keepPerWorkflow: 2 })).runs).toBe(2)
    expect(await remaining(store, [...runsOfA, ...runsOfB])).toEqual([runsOfA[2], runsOfA[3], ...runsOfB])
  })

  it('keeps the runs an open dataset run or experiment round needs; a finished dataset run keeps its results', async () => {
    store = await open()
    vi.useFakeTimers({ toFake: ['Date'] })
    const dataset = await store.datasets.create('cases', [{ id: 'c1', input: {} }])
    const underWay = await store.datasets.createRun({ datasetId: dataset.id, datasetVersion: 1, target: {}, options: {} })
    const done = await store.datasets.createRun({ datasetId: dataset.id, datasetVersion: 1, target: {}, options: {} })
    const [forOpen, forDone, forRound, forOldRound] = [
      await runAt(store, T0, null), await runAt(store, T0, null), await runAt(store, T0, null), await runAt(store, T0, null),
    ]
    await store.datasets.saveRunCase({ datasetRunId: underWay.id, caseId: 'c1', repeat: 0, status: 'running', runId: forOpen, result: null })
    await store.datasets.saveRunCase({ datasetRunId: done.id, caseId: 'c1', repeat: 0, status: 'passed', runId: forDone, result: { verdict: 'pass' } })
    await store.datasets.updateRun(done.id, { status: 'succeeded', finishedAt: T0 })
    const experiment = await store.experiments.create({ name: 'e', current_best: 'v1' })
    const round = await store.experiments.createRound(experiment.id, 'v1')
    await store.experiments.updateRound(round.id, { runs: [{ variant: 'v1', document: 'd', run: 1, run_id: forRound }] })
    const closed = await store.experiments.createRound(experiment.id, 'v1')
    await store.experiments.updateRound(closed.id, { status: 'finished', runs: [{ variant: 'v1', document: 'd', run: 1, run_id: forOldRound }] })
    expect((await store.experiments.round(experiment.id, 1))!.status).toBe('running')
    expect((await store.retention.prune({ now: T0 + 30 * DAY, maxAgeMs: DAY })).runs).toBe(2)
    expect(await remaining(store, [forOpen, forDone, forRound, forOldRound])).toEqual([forOpen, forRound])
    expect(await store.datasets.runCases(done.id)).toMatchObject([{ runId: forDone, result: { verdict: 'pass' } }])
  })

  it('deletes the lease rows of processes whose lease expired and that hold no unfinished run', async () => {
    store = await open()
    vi.useFakeTimers({ toFake: ['Date'] })
    const now = T0 + DAY
    await store.leases.renew({ owner: 'gone', expiresAt: now - 1 })
    await store.leases.renew({ owner: 'gone-holding', expiresAt: now - 1 })
    await store.leases.renew({ owner: 'alive', expiresAt: now + 60_000 })
    vi.setSystemTime(T0)
    const held = await store.runs.create({ definition: { name: 'w' }, owner: 'gone-holding' })
    await store.runs.markStarted(held.id, 'gone-holding')
    expect((await store.retention.prune({ now })).leaseOwners).toBe(1)
    expect((await store.leases.get(held.id))!.leaseExpiresAt).toBe(now - 1)
    await store.runs.write(held.id, [{ type: 'run.finished', at: now, result: { status: 'succeeded', verdict: null, output: null, error: null, steps: {}, duration_ms: 1 } }])
    expect((await store.retention.prune({ now })).leaseOwners).toBe(1)
    expect((await store.retention.prune({ now })).leaseOwners).toBe(0)
  })

  it('bounds the response cache, evicting the entries used longest ago', async () => {
    store = await open()
    vi.useFakeTimers({ toFake: ['Date'] })
    const answer = (text: string) => ({ text }) as unknown as ChatResponse
    for (const [i, key] of ['k1', 'k2', 'k3', 'k4', 'k5'].entries()) {
      vi.setSystemTime(T0 + i)
      await store.cache.set(key, answer(key), { provider: 'openai', model: 'm' })
    }
    vi.setSystemTime(T0 + 10)
    expect(await store.cache.get('k1')).toEqual({ text: 'k1' })
    expect(await store.retention.prune({ now: T0 + 20, cacheMaxEntries: 2, batchSize: 1 }))
      .toEqual({ runs: 0, leaseOwners: 0, cacheEntries: 3, onlineSpans: 0, reviewLeases: 0 })
    expect(await Promise.all(['k1', 'k2', 'k3', 'k4', 'k5'].map(async k => Boolean(await store.cache.get(k))))).toEqual([true, false, false, false, true])
    // Two prunes at once evict the excess once.
    for (const key of ['k6', 'k7', 'k8']) await store.cache.set(key, answer(key), { provider: 'openai', model: 'm' })
    const twice = await Promise.all([1, 2].map(() => store.retention.prune({ now: T0 + 20, cacheMaxEntries: 2, batchSize: 1 })))
    expect(twice[0]!.cacheEntries + twice[1]!.cacheEntries).toBe(3)
  })
})
