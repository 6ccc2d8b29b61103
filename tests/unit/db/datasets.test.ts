import { afterAll, afterEach, describe, expect, it } from 'vitest'
import type { Store } from '../../../core'
import { storeFactories, stopStores } from '../../support/stores'

afterAll(stopStores)

/** One implementation of the dataset repository over both dialects (db/datasets.ts): one contract. */
describe.each(storeFactories)('dataset repository ($name)', ({ name, open }) => {
  let store: Store
  afterEach(async () => { await store?.close() })

  it('keeps every version of a dataset\'s cases, and reads the current one or any earlier', async () => {
    store = await open()
    const { datasets } = store
    const created = await datasets.create('support', [{ id: 'q1', input: { q: 'a' } }])
    expect(created).toMatchObject({ name: 'support', currentVersion: 1, caseCount: 1, version: 1 })
    const updated = (await datasets.update(created.id, { cases: [{ id: 'q1', input: { q: 'a' } }, { id: 'q2', input: { q: 'b' } }] }))!
    expect(updated).toMatchObject({ currentVersion: 2, caseCount: 2, version: 2 })
    expect((await datasets.get(created.id))!.cases).toHaveLength(2)
    expect((await datasets.get(created.id, 1))!.cases).toEqual([{ id: 'q1', input: { q: 'a' } }])
    expect(await datasets.get(created.id, 3)).toBeNull()
    // Renaming alone makes no version.
    expect(await datasets.update(created.id, { name: 'support v2' })).toMatchObject({ name: 'support v2', currentVersion: 2, cases: updated.cases })
    expect((await datasets.versions(created.id)).map(v => [v.version, v.caseCount])).toEqual([[2, 2], [1, 1]])
    expect(await datasets.update('nope', { name: 'x' })).toBeNull()
    expect(await datasets.findByName('support v2')).toMatchObject({ id: created.id })
    expect(await datasets.findByName('support')).toBeNull()
    // A name is one dataset's: the second is refused and nothing of it is stored.
    await expect(Promise.resolve().then(() => datasets.create('support v2', []))).rejects.toThrow(name === 'SQLite' ? /UNIQUE/ : /SQLSTATE 23505/)
    expect((await datasets.list()).map(d => d.name)).toEqual(['support v2'])
  })

  it('records a dataset run\'s cases once each, updated from under way to their result, and deletes with its dataset', async () => {
    store = await open()
    const { datasets } = store
    const dataset = await datasets.create('support', [{ id: 'q1', input: {} }])
    const run = await datasets.createRun({ datasetId: dataset.id, datasetVersion: 1, target: { workflow_id: 'w' }, options: { concurrency: 8, repeat: 1 } })
    expect((await datasets.openRuns()).map(r => r.id)).toEqual([run.id])
    await datasets.saveRunCase({ datasetRunId: run.id, caseId: 'q1', repeat: 1, status: 'running', runId: 'r1', result: null })
    await datasets.saveRunCase({ datasetRunId: run.id, caseId: 'q1', repeat: 1, status: 'succeeded', runId: 'r1', result: { verdict: 'pass' } })
    expect(await datasets.runCases(run.id)).toMatchObject([{ caseId: 'q1', repeat: 1, status: 'succeeded', runId: 'r1', result: { verdict: 'pass' } }])
    await datasets.updateRun(run.id, { status: 'finished', report: { cases: 1 }, finishedAt: 5 })
    expect(await datasets.openRuns()).toEqual([])
    expect((await datasets.runs(dataset.id))[0]).not.toHaveProperty('report')
    expect(await datasets.getRunSummary(run.id)).toMatchObject({ id: run.id, status: 'finished', finishedAt: 5 })
    expect(await datasets.getRunSummary(run.id)).not.toHaveProperty('report')
    expect((await datasets.getRun(run.id))!.report).toEqual({ cases: 1 })
    expect(await datasets.delete(dataset.id)).toBe(true)
    expect(await datasets.delete(dataset.id)).toBe(false)
    expect(await datasets.getRun(run.id)).toBeNull()
    expect(await datasets.runCases(run.id)).toEqual([])
  })
})
