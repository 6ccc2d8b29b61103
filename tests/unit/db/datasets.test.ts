import { afterEach, describe, expect, it } from 'vitest'
import {
  createDataset, createDatasetRun, deleteDataset, getDataset, getDatasetRun, listDatasetRunCases, listDatasetRuns, listDatasetVersions, listOpenDatasetRuns,
  openDatabase, saveDatasetRunCase, updateDataset, updateDatasetRun, type DbHandle,
} from '../../../db'

let handle: DbHandle | undefined
afterEach(() => handle?.close())

describe('dataset repository', () => {
  it('keeps every version of a dataset\'s cases, and reads the current one or any earlier', () => {
    handle = openDatabase(':memory:')
    const created = createDataset(handle.db, 'support', [{ id: 'q1', input: { q: 'a' } }])
    expect(created).toMatchObject({ name: 'support', currentVersion: 1, caseCount: 1, version: 1 })
    const updated = updateDataset(handle.db, created.id, { cases: [{ id: 'q1', input: { q: 'a' } }, { id: 'q2', input: { q: 'b' } }] })!
    expect(updated).toMatchObject({ currentVersion: 2, caseCount: 2, version: 2 })
    expect(getDataset(handle.db, created.id)!.cases).toHaveLength(2)
    expect(getDataset(handle.db, created.id, 1)!.cases).toEqual([{ id: 'q1', input: { q: 'a' } }])
    expect(getDataset(handle.db, created.id, 3)).toBeNull()
    // Renaming alone makes no version.
    expect(updateDataset(handle.db, created.id, { name: 'support v2' })).toMatchObject({ name: 'support v2', currentVersion: 2 })
    expect(listDatasetVersions(handle.db, created.id).map(v => [v.version, v.caseCount])).toEqual([[2, 2], [1, 1]])
    expect(updateDataset(handle.db, 'nope', { name: 'x' })).toBeNull()
    expect(() => createDataset(handle!.db, 'support v2', [])).toThrow(/UNIQUE/)
  })

  it('records a dataset run\'s cases once each, updated from under way to their result, and deletes with its dataset', () => {
    handle = openDatabase(':memory:')
    const dataset = createDataset(handle.db, 'support', [{ id: 'q1', input: {} }])
    const run = createDatasetRun(handle.db, { datasetId: dataset.id, datasetVersion: 1, target: { workflow_id: 'w' }, options: { concurrency: 8, repeat: 1 } })
    expect(listOpenDatasetRuns(handle.db).map(r => r.id)).toEqual([run.id])
    saveDatasetRunCase(handle.db, { datasetRunId: run.id, caseId: 'q1', repeat: 1, status: 'running', runId: 'r1', result: null })
    saveDatasetRunCase(handle.db, { datasetRunId: run.id, caseId: 'q1', repeat: 1, status: 'succeeded', runId: 'r1', result: { verdict: 'pass' } })
    expect(listDatasetRunCases(handle.db, run.id)).toMatchObject([{ caseId: 'q1', repeat: 1, status: 'succeeded', runId: 'r1', result: { verdict: 'pass' } }])
    updateDatasetRun(handle.db, run.id, { status: 'finished', report: { cases: 1 }, finishedAt: 5 })
    expect(listOpenDatasetRuns(handle.db)).toEqual([])
    expect(listDatasetRuns(handle.db, dataset.id)[0]).not.toHaveProperty('report')
    expect(getDatasetRun(handle.db, run.id)!.report).toEqual({ cases: 1 })
    expect(deleteDataset(handle.db, dataset.id)).toBe(true)
    expect(getDatasetRun(handle.db, run.id)).toBeNull()
    expect(listDatasetRunCases(handle.db, run.id)).toEqual([])
  })
})
