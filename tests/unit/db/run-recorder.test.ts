import { afterEach, describe, expect, it } from 'vitest'
import {
  createRun, createRunRecorder, createSqliteResponseCache, createSqliteStore, getRun, getWorkflow, journalFor, listEventsAfter, listStepRuns,
  listWorkflowVersions, openDatabase,
  type DbHandle,
} from '../../../db'
import { runWorkflow } from '../../../engine'
import { qualityGate, testDeps } from '../../support/workflows'

let handle: DbHandle | undefined
afterEach(() => handle?.close())

describe('db', () => {
  it('keeps every saved version of a workflow', async () => {
    handle = openDatabase(':memory:')
    const { workflows } = createSqliteStore(handle)
    const created = await workflows.create({ name: 'A', nodes: [] })
    const updated = (await workflows.update(created.id, { name: 'B', nodes: [] }))!
    expect(updated.version).toBe(2)
    expect(getWorkflow(handle.db, created.id)!.name).toBe('B')
    expect(getWorkflow(handle.db, created.id, 1)!.definition).toEqual({ name: 'A', nodes: [] })
    expect(listWorkflowVersions(handle.db, created.id).map(v => v.version)).toEqual([2, 1])
    expect(await workflows.update('nope', { name: 'x' })).toBeNull()
    expect(await workflows.delete(created.id)).toBe(true)
    expect(getWorkflow(handle.db, created.id)).toBeNull()
  })

  it('records a run: a row per step attempt, events in order, a journal of finished steps', async () => {
    handle = openDatabase(':memory:')
    const definition = qualityGate(['one', 'two'], [false, true])
    const run = createRun(handle.db, { definition, input: { question: 'q' } })
    const recorder = createRunRecorder(handle.db, run.id)
    const { options } = testDeps()
    await runWorkflow(definition, { ...options, input: { question: 'q' }, onEvent: (e) => { recorder.record(e) } })
    const steps = listStepRuns(handle.db, run.id)
    expect(steps.filter(s => s.nodeId === 'draft').map(s => [s.attempt, s.status, (s.output as { text: string }).text])).toEqual([[1, 'succeeded', 'one'], [2, 'succeeded', 'two']])
    expect(steps.find(s => s.nodeId === 'draft' && s.attempt === 2)!.input).toMatchObject({ prompt: 'Answer: q\nfeedback 1 (attempt 2)' })
    expect(steps.find(s => s.nodeId === 'again')!.rerun).toMatchObject({ target: 'draft' })
    const events = listEventsAfter(handle.db, run.id)
    expect(events[0]!.type).toBe('run.started')
    expect(events.at(-1)!.type).toBe('run.finished')
    expect(events.map(e => e.id)).toEqual([...events.map(e => e.id)].sort((a, b) => a - b))
    expect(listEventsAfter(handle.db, run.id, events[3]!.id)).toHaveLength(events.length - 4)
    expect(events.find(e => e.type === 'step.retrying')!.data).toMatchObject({ target: 'draft', attempt: 2 })
    const journal = journalFor(handle.db, run.id)
    expect(journal('draft', 2)!.output).toEqual({ text: 'two' })
    expect(journal('ok', 1)!.status).toBe('skipped')
    expect(getRun(handle.db, run.id)!.status).toBe('queued')
  })

  it('caches LLM responses across handles of the same file', () => {
    handle = openDatabase(':memory:')
    const cache = createSqliteResponseCache(handle.db)
    const response = { text: 'x', model: 'm', usage: { input_tokens: 1, output_tokens: 2 }, latency_ms: 3, cached: false }
    cache.set('k', response, { provider: 'openai', model: 'm' })
    expect(cache.get('k')).toEqual(response)
    expect(cache.get('other')).toBeUndefined()
  })
})

describe('runs repository', () => {
  it('lists a workflow\'s runs newest first, without their definitions, inputs and outputs', async () => {
    handle = openDatabase(':memory:')
    const store = createSqliteStore(handle)
    const wf = await store.workflows.create({ name: 'A', nodes: [] })
    createRun(handle.db, { workflowId: wf.id, workflowVersion: 1, definition: { name: 'A' } }, 1000)
    const newer = createRun(handle.db, { workflowId: wf.id, workflowVersion: 1, definition: { name: 'A' } }, 2000)
    const listed = await store.runs.list(wf.id)
    expect(listed.map(r => r.id)[0]).toBe(newer.id)
    expect(listed).toHaveLength(2)
    expect('definition' in listed[0]!).toBe(false)
    expect('input' in listed[0]! || 'output' in listed[0]!).toBe(false)
    expect(await store.runs.list(wf.id, { before: 2000 })).toHaveLength(1)
  })
})

describe('the SQLite store', () => {
  it('seeds workflows once per marker, and tells whether a round exists', async () => {
    const { createSqliteStore } = await import('../../../db')
    handle = openDatabase(':memory:')
    const store = createSqliteStore(handle)
    expect(await store.workflows.seed('templates_loaded', [{ name: 'A' }, { name: 'B' }])).toBe(2)
    expect(await store.workflows.seed('templates_loaded', [{ name: 'A' }, { name: 'B' }])).toBe(0)
    expect((await store.workflows.list()).map(w => w.name).sort()).toEqual(['A', 'B'])
    expect(await store.settings.get('templates_loaded')).toBe(true)
    const experiment = await store.experiments.create({ name: 'E', current_best: 'a' })
    const round = await store.experiments.createRound(experiment.id, 'a')
    expect(await store.experiments.roundExists(experiment.id, round.number)).toBe(true)
    expect(await store.experiments.roundExists(experiment.id, round.number + 1)).toBe(false)
    expect(await store.experiments.roundExists('nope', round.number)).toBe(false)
  })
})
