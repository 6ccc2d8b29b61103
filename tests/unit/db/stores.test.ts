import { setTimeout as sleep } from 'node:timers/promises'
import pg from 'pg'
import { afterAll, afterEach, describe, expect, it } from 'vitest'
import { resumeDecision, type Store } from '../../../core'
import { runWorkflow, type RunEvent } from '../../../engine'
import { storeFactories, stopStores } from '../../support/stores'
import type { PgHandle } from '../../../db/pg'
import { qualityGate, testDeps } from '../../support/workflows'

afterAll(stopStores)

/** A store's answer as a promise: the SQLite store answers (and throws) at once. */
const settled = async <T>(call: () => T) => call()

/** The repositories through the store interface, with the same assertions on SQLite and PostgreSQL. */
describe.each(storeFactories)('the $name store', ({ name, open }) => {
  let store: Store
  afterEach(async () => store?.close())

  it('keeps every saved version of a workflow, refuses a save on a stale version, and deletes it', async () => {
    store = await open()
    const created = await store.workflows.create({ name: 'A', nodes: [] })
    const updated = (await store.workflows.update(created.id, { name: 'B', nodes: [] }))!
    expect(updated.version).toBe(2)
    expect((await store.workflows.get(created.id))!.name).toBe('B')
    expect((await store.workflows.get(created.id, 1))!.definition).toEqual({ name: 'A', nodes: [] })
    expect(await store.workflows.get(created.id, 3)).toBeNull()
    await expect(settled(() => store.workflows.update(created.id, { name: 'C' }, { baseVersions: [1] })))
      .rejects.toMatchObject({ code: 'VERSION_CONFLICT', details: { current_version: 2 } })
    expect(await store.workflows.update(created.id, { name: 'C' }, { baseVersions: [2] })).toMatchObject({ version: 3, name: 'C' })
    expect(await store.workflows.update('nope', { name: 'x' })).toBeNull()
    expect(await store.workflows.delete(created.id)).toBe(true)
    expect(await store.workflows.get(created.id)).toBeNull()
    expect(await store.workflows.delete(created.id)).toBe(false)
  })

  it('keeps a definition as it was written, key order included', async () => {
    store = await open()
    const definition = { name: 'order', nodes: [{ type: 'input', id: 'in' }], edges: [], zeta: 1, alpha: { b: 2, a: 1 } }
    const created = await store.workflows.create(definition)
    expect(JSON.stringify((await store.workflows.get(created.id))!.definition)).toBe(JSON.stringify(definition))
  })

  it('records a run: a row per step attempt, events in order, a journal of finished steps', async () => {
    store = await open()
    const definition = qualityGate(['one', 'two'], [false, true])
    const run = await store.runs.create({ definition, input: { question: 'q' } })
    const { options } = testDeps()
    await runWorkflow(definition, { ...options, input: { question: 'q' }, onEvent: async (e) => { await store.runs.write(run.id, [e]) } })
    const steps = await store.runs.steps(run.id)
    expect(steps.filter(s => s.nodeId === 'draft').map(s => [s.attempt, s.status, (s.output as { text: string }).text])).toEqual([[1, 'succeeded', 'one'], [2, 'succeeded', 'two']])
    expect(steps.find(s => s.nodeId === 'draft' && s.attempt === 2)!.input).toMatchObject({ prompt: 'Answer: q\nfeedback 1 (attempt 2)' })
    expect(steps.find(s => s.nodeId === 'again')!.rerun).toMatchObject({ target: 'draft' })
    const events = await store.runs.eventsAfter(run.id)
    expect(events[0]!.type).toBe('run.started')
    expect(events.at(-1)!.type).toBe('run.finished')
    expect(events.map(e => e.id)).toEqual([...events.map(e => e.id)].sort((a, b) => a - b))
    expect(await store.runs.eventsAfter(run.id, events[3]!.id)).toHaveLength(events.length - 4)
    expect(await store.runs.eventsAfter(run.id, 0, 2)).toHaveLength(2)
    expect(events.find(e => e.type === 'step.retrying')!.data).toMatchObject({ target: 'draft', attempt: 2 })
    const journal = await store.runs.journal(run.id)
    expect(journal('draft', 2)!.output).toEqual({ text: 'two' })
    expect(journal('ok', 1)!.status).toBe('skipped')
    // The executor's run.finished, written as any event, ends the run.
    expect((await store.runs.get(run.id))!.status).toBe('succeeded')
  })

  it('records several events of a run in one commit, in order, its step row once, its end with run.finished; fenced: all or none', async () => {
    store = await open()
    const result = { status: 'succeeded' as const, verdict: null, output: 'done', error: null, steps: {}, duration_ms: 3 }
    const eventsOf = (n: number): (RunEvent | { type: 'run.finished', at: number, result: typeof result })[] => [
      { type: 'run.started', at: 1, resumed: false },
      { type: 'step.started', at: 1, node_id: 'in', attempt: 1, input: { n } },
      { type: 'step.succeeded', at: 2, step: { node_id: 'in', attempt: 1, status: 'succeeded', input: { n }, output: { n }, started_at: 1, finished_at: 2 } },
      { type: 'step.started', at: 2, node_id: 'draft', attempt: 1, input: { prompt: `p${n}` } },
      { type: 'run.finished', at: 3, result },
    ]
    // Eight runs at once: on PostgreSQL, those arriving while others commit share a statement.
    const created = await Promise.all(Array.from({ length: 8 }, () => store.runs.create({ definition: { name: 'A' }, owner: 'a' })))
    const written = await Promise.all(created.map((run, n) => store.runs.write(run.id, eventsOf(n), 'a')))
    for (const [n, run] of created.entries()) {
      const rows = written[n]!
      expect(rows!.map(r => r.type)).toEqual(['run.started', 'step.started', 'step.succeeded', 'step.started', 'run.finished'])
      expect(await store.runs.eventsAfter(run.id)).toEqual(rows)
      expect(rows!.map(r => r.id)).toEqual([...rows!.map(r => r.id)].sort((a, b) => a - b))
      expect((await store.runs.steps(run.id)).map(s => [s.nodeId, s.status, s.input, s.output])).toEqual([['in', 'succeeded', { n }, { n }], ['draft', 'running', { prompt: `p${n}` }, null]])
      expect(await store.runs.get(run.id)).toMatchObject({ status: 'succeeded', output: 'done', durationMs: 3 })
    }
    // Held by another process: nothing of the group is written.
    const other = await store.runs.create({ definition: { name: 'A' }, owner: 'b' })
    await store.runs.markStarted(other.id, 'b')
    expect(await store.runs.write(other.id, eventsOf(9), 'a')).toBeNull()
    expect(await store.runs.eventsAfter(other.id)).toEqual([])
    expect(await store.runs.steps(other.id)).toEqual([])
    expect(await store.runs.get(other.id)).toMatchObject({ status: 'running', output: null })
  })

  it('starts and finishes a run, storing its end with its last event', async () => {
    store = await open()
    const run = await store.runs.create({ definition: { name: 'A' }, owner: 'me' })
    await store.runs.markStarted(run.id, 'me')
    expect(await store.runs.get(run.id)).toMatchObject({ status: 'running', leaseOwner: 'me', startedAt: expect.any(Number) })
    const result = { status: 'succeeded' as const, verdict: 'pass' as const, output: { text: 'ok' }, error: null, steps: {}, duration_ms: 12.5 }
    const [last] = await store.runs.write(run.id, [{ type: 'run.finished', at: 5, result }]) ?? []
    expect(last).toMatchObject({ runId: run.id, type: 'run.finished', at: 5 })
    expect(await store.runs.get(run.id)).toMatchObject({ status: 'succeeded', verdict: 'pass', output: { text: 'ok' }, durationMs: 12.5, finishedAt: expect.any(Number) })
    expect(await store.runs.statuses([run.id, 'nope'])).toEqual(new Map([[run.id, 'succeeded']]))
    expect(await store.runs.statuses([])).toEqual(new Map())
    const workflow = await store.workflows.create({ name: 'W', nodes: [] })
    const queued = await store.runs.create({ definition: { name: 'W' }, workflowId: workflow.id })
    const running = await store.runs.create({ definition: { name: 'W' }, workflowId: workflow.id })
    await store.runs.markStarted(running.id, 'me')
    const ended = await store.runs.create({ definition: { name: 'W' }, workflowId: workflow.id })
    await store.runs.write(ended.id, [{ type: 'run.finished', at: 1, result }])
    expect((await store.runs.unfinished(workflow.id)).sort()).toEqual([queued.id, running.id].sort())
    expect(await store.runs.unfinished('nope')).toEqual([])
    expect(await store.runs.get('nope')).toBeNull()
  })

  it('claims a run still queued under the process that queued it once; on PostgreSQL the claim also marks it started', async () => {
    store = await open()
    const run = await store.runs.create({ definition: { name: 'A' }, owner: 'a', status: 'queued' })
    const claim = (owner: string) => settled(() => store.leases.claimQueued(run.id, {
      owner, now: Date.now(), lease: { owner, expiresAt: Date.now() + 60_000 }, from: 'a', resume: (r, lastStepAt) => resumeDecision(r, lastStepAt, 2), isFree: () => false,
    }))
    await store.leases.renew({ owner: 'b', expiresAt: Date.now() + 60_000 })
    const claimed = await claim('b')
    expect(claimed!.run.id).toBe(run.id)
    // One write fewer per run where writes are round trips: the worker then writes no start of its own.
    expect(claimed!.started ?? false).toBe(name === 'PostgreSQL')
    const stored = (await store.runs.get(run.id))!
    expect(stored).toMatchObject({ leaseOwner: 'b', status: claimed!.started ? 'running' : 'queued' })
    if (claimed!.started) expect(stored.startedAt).toBeGreaterThanOrEqual(run.createdAt)
    // Taken: another worker's copy of the job finds nothing to run.
    await store.leases.renew({ owner: 'c', expiresAt: Date.now() + 60_000 })
    expect(await claim('c')).toBeNull()
  })

  it('fences a holder\'s writes: once another process has taken the run, they write nothing and say so', async () => {
    store = await open()
    const run = await store.runs.create({ definition: { name: 'A' }, owner: 'a' })
    await store.runs.markStarted(run.id, 'a')
    const started: RunEvent = { type: 'step.started', at: 1, node_id: 'first', attempt: 1, input: {} }
    expect(await store.runs.write(run.id, [started], 'a')).toMatchObject([{ runId: run.id, type: 'step.started' }])
    await store.leases.renew({ owner: 'b', expiresAt: Date.now() + 60_000 })
    const claimed = await store.leases.claimQueued(run.id, {
      owner: 'b', now: Date.now(), lease: { owner: 'b', expiresAt: Date.now() + 60_000 }, resume: (run, lastStepAt) => resumeDecision(run, lastStepAt, 2), isFree: () => true,
    })
    expect(claimed!.run.id).toBe(run.id)
    const succeeded: RunEvent = { type: 'step.succeeded', at: 2, step: { node_id: 'first', attempt: 1, status: 'succeeded', output: 'late', started_at: 1, finished_at: 2 } }
    const result = { status: 'succeeded' as const, verdict: null, output: 'late', error: null, steps: {}, duration_ms: 1 }
    expect(await store.runs.write(run.id, [succeeded], 'a')).toBeNull()
    expect(await store.runs.write(run.id, [{ type: 'run.finished', at: 3, result }], 'a')).toBeNull()
    // Nor does a late start take it back.
    await store.runs.markStarted(run.id, 'a')
    expect(await store.runs.get(run.id)).toMatchObject({ status: 'running', leaseOwner: 'b', output: null })
    expect((await store.runs.eventsAfter(run.id)).map(e => e.type)).toEqual(['step.started'])
    expect((await store.runs.steps(run.id)).map(s => [s.nodeId, s.status])).toEqual([['first', 'running']])
    // The new holder writes.
    expect(await store.runs.write(run.id, [{ type: 'run.finished', at: 4, result }], 'b')).toMatchObject([{ type: 'run.finished' }])
    expect(await store.runs.get(run.id)).toMatchObject({ status: 'succeeded', leaseOwner: 'b' })
  })

  it('commits one run\'s writes in the order they were made, even when none waits for the one before', async () => {
    store = await open()
    const run = await store.runs.create({ definition: { name: 'A' }, owner: 'me' })
    const retrying = (attempt: number): RunEvent => ({ type: 'step.retrying', at: attempt, node_id: 'draft', attempt, target: 'draft', reason: `try ${attempt}` })
    const result = { status: 'succeeded' as const, verdict: null, output: 'done', error: null, steps: {}, duration_ms: 1 }
    await Promise.all([
      store.runs.markStarted(run.id, 'me'),
      ...[1, 2, 3, 4, 5].map(attempt => store.runs.write(run.id, [retrying(attempt)])),
      store.runs.write(run.id, [{ type: 'run.finished', at: 6, result }]),
    ])
    const events = await store.runs.eventsAfter(run.id)
    expect(events.map(e => e.at)).toEqual([1, 2, 3, 4, 5, 6])
    expect(events.map(e => e.id)).toEqual([...events.map(e => e.id)].sort((a, b) => a - b))
    expect(await store.runs.get(run.id)).toMatchObject({ status: 'succeeded', output: 'done' })
  })

  it('stores the writes of many runs made at once as each would be stored alone, fenced each by its own holder', async () => {
    store = await open()
    const events = (n: number): RunEvent[] => [
      { type: 'step.started', at: 1, node_id: 'draft', attempt: 1, input: { prompt: `p${n}`, nested: { list: [1, null, 'x'] } } },
      { type: 'step.succeeded', at: 2, step: {
        node_id: 'draft', attempt: 1, status: 'succeeded', input: { prompt: `p${n}` }, output: { text: `answer ${n}`, none: null },
        usage: { input_tokens: 3, output_tokens: 4 }, started_at: 1, finished_at: 2, duration_ms: 1.5,
      } },
      { type: 'step.retrying', at: 3, node_id: 'draft', attempt: 2, target: 'draft', reason: 'again' },
    ]
    const result = (n: number) => ({ status: 'succeeded' as const, verdict: 'pass' as const, output: { text: `answer ${n}` }, error: null, steps: {}, duration_ms: 4 })
    const write = async (runId: string, n: number, holder: string) => {
      const stored = []
      for (const event of events(n)) stored.push((await store.runs.write(runId, [event], holder))?.[0] ?? null)
      stored.push((await store.runs.write(runId, [{ type: 'run.finished', at: 4, result: result(n) }], holder))?.[0] ?? null)
      return stored
    }
    // One run written alone, then twelve at once (one of them no longer held by its writer).
    const alone = await store.runs.create({ definition: { name: 'A' }, owner: 'me' })
    await write(alone.id, 0, 'me')
    const together = await Promise.all(Array.from({ length: 12 }, (_, i) => store.runs.create({ definition: { name: 'A' }, owner: i === 5 ? 'other' : 'me' })))
    const written = await Promise.all(together.map((run, i) => write(run.id, 0, 'me').then(stored => ({ run, stored, i }))))
    const shape = async (runId: string) => ({
      run: await Promise.resolve(store.runs.get(runId))
        .then(row => row && { status: row.status, verdict: row.verdict, output: row.output, durationMs: row.durationMs }),
      steps: (await store.runs.steps(runId)).map(({ id: _id, runId: _run, ...step }) => step),
      events: (await store.runs.eventsAfter(runId)).map(({ id: _id, runId: _run, ...event }) => event),
    })
    const expected = await shape(alone.id)
    expect(expected.events.map(event => event.type)).toEqual(['step.started', 'step.succeeded', 'step.retrying', 'run.finished'])
    for (const { run, stored, i } of written) {
      if (i === 5) {
        expect(stored).toEqual([null, null, null, null])
        expect(await shape(run.id)).toEqual({ run: { status: 'queued', verdict: null, output: null, durationMs: null }, steps: [], events: [] })
        continue
      }
      expect(stored.map(event => event!.type)).toEqual(expected.events.map(event => event.type))
      expect((await store.runs.eventsAfter(run.id)).map(event => event.id)).toEqual(stored.map(event => event!.id))
      expect(await shape(run.id)).toEqual(expected)
    }
  })

  it('lists a workflow\'s runs newest first, without their definitions, inputs and outputs', async () => {
    store = await open()
    const wf = await store.workflows.create({ name: 'A', nodes: [] })
    await store.runs.create({ workflowId: wf.id, workflowVersion: 1, definition: { name: 'A' } })
    await sleep(5)
    const newer = await store.runs.create({ workflowId: wf.id, workflowVersion: 1, definition: { name: 'A' } })
    const listed = await store.runs.list(wf.id)
    expect(listed.map(r => r.id)[0]).toBe(newer.id)
    expect(listed).toHaveLength(2)
    expect('definition' in listed[0]!).toBe(false)
    expect('input' in listed[0]! || 'output' in listed[0]!).toBe(false)
    expect(await store.runs.list(wf.id, { before: newer.createdAt })).toHaveLength(1)
    expect(await store.runs.list(wf.id, { limit: 1 })).toHaveLength(1)
    // A workflow's runs go with it.
    await store.workflows.delete(wf.id)
    expect(await store.runs.get(newer.id)).toBeNull()
  })

  it('caches LLM responses', async () => {
    store = await open()
    const response = { text: 'x', model: 'm', usage: { input_tokens: 1, output_tokens: 2 }, latency_ms: 3, cached: false }
    await store.cache.set('k', response, { provider: 'openai', model: 'm' })
    expect(await store.cache.get('k')).toEqual(response)
    await store.cache.set('k', { ...response, text: 'y' }, { provider: 'openai', model: 'm' })
    expect(await store.cache.get('k')).toMatchObject({ text: 'y' })
    expect(await store.cache.get('other')).toBeUndefined()
  })

  it('seeds workflows once per marker, keeps settings, and numbers an experiment\'s rounds', async () => {
    store = await open()
    expect(await store.workflows.seed('templates_loaded', [{ name: 'A' }, { name: 'B' }])).toBe(2)
    expect(await store.workflows.seed('templates_loaded', [{ name: 'A' }, { name: 'B' }])).toBe(0)
    expect((await store.workflows.list()).map(w => w.name).sort()).toEqual(['A', 'B'])
    expect(await store.settings.get('templates_loaded')).toBe(true)
    await store.settings.set('k', { a: [1, 2] })
    expect(await store.settings.get('k')).toEqual({ a: [1, 2] })
    expect(await store.settings.get('unset')).toBeNull()

    const experiment = await store.experiments.create({ name: 'E', current_best: 'a' })
    expect(await store.experiments.update(experiment.id, { name: 'E2', current_best: 'b' })).toMatchObject({ name: 'E2', currentBest: 'b' })
    expect(await store.experiments.update('nope', { name: 'x', current_best: 'a' })).toBeNull()
    const rounds = await Promise.all([store.experiments.createRound(experiment.id, 'a'), store.experiments.createRound(experiment.id, 'a')])
    expect(rounds.map(r => r.number).sort()).toEqual([1, 2])
    expect(await store.experiments.roundExists(experiment.id, 2)).toBe(true)
    expect(await store.experiments.roundExists(experiment.id, 3)).toBe(false)
    expect(await store.experiments.roundExists('nope', 1)).toBe(false)
    await store.experiments.updateRound(rounds[0]!.id, { status: 'finished', report: { best: 'a' }, finishedAt: 9 })
    expect(await store.experiments.round(experiment.id, rounds[0]!.number)).toMatchObject({ status: 'finished', report: { best: 'a' }, finishedAt: 9 })
    expect((await store.experiments.openRounds()).map(r => r.id)).toEqual([rounds[1]!.id])
    expect((await store.experiments.rounds(experiment.id)).map(r => r.number)).toEqual([1, 2])
    expect(await store.experiments.delete(experiment.id)).toBe(true)
    expect(await store.experiments.rounds(experiment.id)).toEqual([])
    expect(await store.experiments.get(experiment.id)).toBeNull()
  })

  it('keeps every version of a dataset\'s cases, and reads the current one or any earlier', async () => {
    store = await open()
    const created = await store.datasets.create('support', [{ id: 'q1', input: { q: 'a' } }])
    expect(created).toMatchObject({ name: 'support', currentVersion: 1, caseCount: 1, version: 1 })
    const updated = (await store.datasets.update(created.id, { cases: [{ id: 'q1', input: { q: 'a' } }, { id: 'q2', input: { q: 'b' } }] }))!
    expect(updated).toMatchObject({ currentVersion: 2, caseCount: 2, version: 2 })
    expect((await store.datasets.get(created.id))!.cases).toHaveLength(2)
    expect((await store.datasets.get(created.id, 1))!.cases).toEqual([{ id: 'q1', input: { q: 'a' } }])
    expect(await store.datasets.get(created.id, 3)).toBeNull()
    // Renaming alone makes no version.
    expect(await store.datasets.update(created.id, { name: 'support v2' })).toMatchObject({ name: 'support v2', currentVersion: 2 })
    expect((await store.datasets.versions(created.id)).map(v => [v.version, v.caseCount])).toEqual([[2, 2], [1, 1]])
    expect(await store.datasets.update('nope', { name: 'x' })).toBeNull()
    expect(await store.datasets.findByName('support v2')).toMatchObject({ id: created.id })
    await expect(settled(() => store.datasets.create('support v2', []))).rejects.toThrow()
  })

  it('records a dataset run\'s cases once each, updated from under way to their result, and deletes with its dataset', async () => {
    store = await open()
    const dataset = await store.datasets.create('support', [{ id: 'q1', input: {} }])
    const run = await store.datasets.createRun({ datasetId: dataset.id, datasetVersion: 1, target: { workflow_id: 'w' }, options: { concurrency: 8, repeat: 1 } })
    expect((await store.datasets.openRuns()).map(r => r.id)).toEqual([run.id])
    await store.datasets.saveRunCase({ datasetRunId: run.id, caseId: 'q1', repeat: 1, status: 'running', runId: 'r1', result: null })
    expect(await store.datasets.runCases(run.id)).toMatchObject([{ caseId: 'q1', status: 'running', runId: 'r1', result: null }])
    // No result is SQL NULL, not the JSON value null.
    if (name === 'PostgreSQL') expect((await ((store as unknown as { handle: PgHandle }).handle).pool.query('select count(*)::int as n from dataset_run_cases where result is null')).rows).toEqual([{ n: 1 }])
    await store.datasets.saveRunCase({ datasetRunId: run.id, caseId: 'q1', repeat: 1, status: 'succeeded', runId: 'r1', result: { verdict: 'pass' } })
    expect(await store.datasets.runCases(run.id)).toMatchObject([{ caseId: 'q1', repeat: 1, status: 'succeeded', runId: 'r1', result: { verdict: 'pass' } }])
    await store.datasets.updateRun(run.id, { status: 'finished', report: { cases: 1 }, finishedAt: 5 })
    expect(await store.datasets.openRuns()).toEqual([])
    expect((await store.datasets.runs(dataset.id))[0]).not.toHaveProperty('report')
    expect((await store.datasets.getRun(run.id))!.report).toEqual({ cases: 1 })
    const summary = (await store.datasets.getRunSummary(run.id))!
    expect(summary).toMatchObject({ id: run.id, status: 'finished', finishedAt: 5 })
    expect(summary).not.toHaveProperty('report')
    expect(await store.datasets.getRunSummary('nope')).toBeNull()
    expect(await store.datasets.delete(dataset.id)).toBe(true)
    expect(await store.datasets.getRun(run.id)).toBeNull()
    expect(await store.datasets.getRunSummary(run.id)).toBeNull()
    expect(await store.datasets.runCases(run.id)).toEqual([])
  })
})

describe('a holder\'s write racing a takeover (PostgreSQL)', () => {
  it('waits for a takeover being committed, then writes nothing', async () => {
    const postgres = storeFactories.find(factory => factory.name === 'PostgreSQL')!
    const url = await postgres.durable()
    const store = postgres.openAt(url)
    const other = new pg.Client({ connectionString: url })
    await other.connect()
    try {
      const run = await store.runs.create({ definition: { name: 'A' }, owner: 'a' })
      await store.runs.markStarted(run.id, 'a')
      const event = (at: number): RunEvent => ({ type: 'step.retrying', at, node_id: 'draft', attempt: at, target: 'draft', reason: 'again' })
      // Another process's takeover, not yet committed: the holder's write waits for it...
      await other.query('begin')
      await other.query(`update runs set lease_owner = 'b' where id = $1`, [run.id])
      let settled = false
      const write = store.runs.write(run.id, [event(1)], 'a').finally(() => { settled = true })
      await sleep(300)
      expect(settled).toBe(false)
      // ...and once it is committed, finds the run taken and writes nothing.
      await other.query('commit')
      expect(await write).toBeNull()
      expect(await store.runs.eventsAfter(run.id)).toEqual([])
      // The new holder writes.
      expect(await store.runs.write(run.id, [event(2)], 'b')).toMatchObject([{ at: 2 }])
      expect((await store.runs.eventsAfter(run.id)).map(e => e.at)).toEqual([2])
    }
    finally {
      await other.end()
      await store.close()
    }
  })
})
