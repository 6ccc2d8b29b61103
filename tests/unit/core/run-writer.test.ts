import { setImmediate as nextTurn, setTimeout as sleep } from 'node:timers/promises'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { RunEventRow, RunRepository, Store } from '../../../core'
import { RunWriter, START_HELD_MS } from '../../../core/runs/run-writer'
import { createSqliteStore, openDatabase } from '../../../db'
import type { RunEvent, RunResult } from '../../../engine'

const ended = (node: string, at: number): RunEvent => ({ type: 'step.succeeded', at, step: { node_id: node, attempt: 1, status: 'succeeded', output: node, started_at: at, finished_at: at } })
const started = (node: string, at: number): RunEvent => ({ type: 'step.started', at, node_id: node, attempt: 1, input: {} })
const result: RunResult = { status: 'failed', verdict: null, output: null, error: { code: 'CANCELLED', category: 'user', message: 'no' }, steps: {}, duration_ms: 1 }

describe('the run writer: a run\'s events written together', () => {
  let store: Store
  let writer: RunWriter
  let refused: string[]
  let runId: string
  let heard: RunEventRow[]
  /** The store's writes, one entry per commit: the types written together. */
  let commits: string[][]
  beforeEach(async () => {
    store = createSqliteStore(openDatabase(':memory:'))
    commits = []
    const runs: RunRepository = {
      ...store.runs,
      write: async (id, events, holder) => {
        commits.push(events.map(e => e.type))
        return store.runs.write(id, events, holder)
      },
    }
    refused = []
    writer = new RunWriter(runs, 'me', undefined, id => refused.push(id))
    runId = (await store.runs.create({ definition: { name: 'A' }, owner: 'me' })).id
    await store.runs.markStarted(runId, 'me')
    heard = []
    writer.subscribe(runId, row => heard.push(row))
  })
  afterEach(() => store.close())

  it('writes the starts and the step\'s end of one turn in one commit, when a step\'s work asks, and tells the subscribers once committed', async () => {
    expect(await writer.event(runId, { type: 'run.started', at: 1, resumed: false })).toBe(true)
    expect(await writer.event(runId, started('in', 1))).toBe(true)
    expect(await writer.event(runId, ended('in', 2))).toBe(true)
    expect(await writer.event(runId, started('draft', 2))).toBe(true)
    // Taken, not written yet, so not told.
    expect(await store.runs.eventsAfter(runId)).toEqual([])
    expect(heard).toEqual([])
    // The next step's work waits for the step before to be committed.
    await writer.commit(runId)
    const stored = await store.runs.eventsAfter(runId)
    expect(stored.map(e => e.type)).toEqual(['run.started', 'step.started', 'step.succeeded', 'step.started'])
    expect(commits).toEqual([['run.started', 'step.started', 'step.succeeded', 'step.started']])
    expect(heard).toEqual(stored)
    expect((await store.runs.steps(runId)).map(s => [s.nodeId, s.status])).toEqual([['in', 'succeeded'], ['draft', 'running']])
    // Nothing more held: asking again writes nothing.
    await writer.commit(runId)
    expect(commits).toHaveLength(1)
  })

  it('writes a step\'s end within the turn when nothing asks, and a long step\'s start alone after START_HELD_MS', async () => {
    await writer.event(runId, ended('in', 1))
    await nextTurn()
    await nextTurn()
    expect((await store.runs.eventsAfter(runId)).map(e => e.type)).toEqual(['step.succeeded'])
    await writer.event(runId, started('draft', 2))
    await sleep(START_HELD_MS / 2)
    expect(await store.runs.eventsAfter(runId)).toHaveLength(1)
    await sleep(START_HELD_MS)
    expect((await store.runs.eventsAfter(runId)).map(e => e.type)).toEqual(['step.succeeded', 'step.started'])
    expect(heard.map(e => e.type)).toEqual(['step.succeeded', 'step.started'])
    expect(commits).toEqual([['step.succeeded'], ['step.started']])
  })

  it('writes what is held with the run\'s end, in one commit', async () => {
    await writer.event(runId, started('in', 1))
    await writer.event(runId, ended('in', 2))
    expect(await writer.finish(runId, { type: 'run.finished', at: 2, result })).toBe(true)
    expect(commits).toEqual([['step.started', 'step.succeeded', 'run.finished']])
    expect(await store.runs.get(runId)).toMatchObject({ status: 'failed' })
    expect(heard.map(e => e.type)).toEqual(['step.started', 'step.succeeded', 'run.finished'])
  })

  it('writes nothing for a run another process holds, and says it was refused', async () => {
    const elsewhere = (await store.runs.create({ definition: { name: 'B' }, owner: 'other' })).id
    expect(await writer.event(elsewhere, started('in', 1))).toBe(true)
    expect(await writer.event(elsewhere, ended('in', 2))).toBe(true)
    await writer.commit(elsewhere)
    expect(await store.runs.eventsAfter(elsewhere)).toEqual([])
    expect(refused).toEqual([elsewhere])
    // A run marked lost here gets nothing written.
    writer.lost.add(runId)
    expect(await writer.event(runId, started('draft', 2))).toBe(false)
    expect(await writer.finish(runId, { type: 'run.finished', at: 3, result })).toBe(false)
    expect(await store.runs.eventsAfter(runId)).toEqual([])
  })

  it('fails the step that asks when the write before it failed, and a write no one waited on at the run\'s next event', async () => {
    // The database is away for the run's events, and back by the time its end is written.
    const failing = new RunWriter({
      ...store.runs,
      write: (id, events, holder) => (events.some(e => e.type === 'run.finished') ? store.runs.write(id, events, holder) : Promise.reject(new Error('the database went away'))),
    }, 'me')
    await failing.event(runId, ended('in', 1))
    await expect(failing.commit(runId)).rejects.toThrow('the database went away')
    await failing.event(runId, ended('draft', 2))
    await nextTurn()
    await nextTurn()
    await expect(failing.event(runId, started('judge', 3))).rejects.toThrow('the database went away')
    // A turn's write fails while the next step's own write waits behind it (a store writes a run's
    // events in order) and then goes through: that step still may not start, since the events
    // before it are not committed.
    let calls = 0
    let queue: Promise<unknown> = Promise.resolve()
    const once = new RunWriter({
      ...store.runs,
      write: (id, events, holder) => {
        const call = ++calls
        const result = queue.then(() => (call === 1 ? sleep(20).then(() => { throw new Error('a moment without the database') }) : store.runs.write(id, events, holder)))
        queue = result.catch(() => {})
        return result
      },
    }, 'me')
    const other = (await store.runs.create({ definition: { name: 'C' }, owner: 'me' })).id
    await once.event(other, started('in', 1))
    await once.event(other, ended('in', 2))
    await nextTurn()
    await once.event(other, started('draft', 3))
    await once.event(other, ended('draft', 4))
    await once.event(other, started('judge', 5))
    await expect(once.commit(other)).rejects.toThrow('a moment without the database')
    expect(calls).toBe(2)
    // The run's end is still written (the executor writes it after the failure).
    expect(await failing.finish(runId, { type: 'run.finished', at: 3, result })).toBe(true)
    expect((await store.runs.eventsAfter(runId)).map(e => e.type)).toEqual(['run.finished'])
  })
})
