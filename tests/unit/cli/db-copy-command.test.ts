import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { main } from '../../../cli/main'
import type { Store } from '../../../core'
import { createSqliteStore, openDatabase } from '../../../db'
import { copySqliteToPostgres } from '../../../db/copy'
import { createPostgresStore, openPostgres } from '../../../db/pg'
import { runWorkflow, type ChatResponse } from '../../../engine'
import { startPostgres, type TestPostgres } from '../../support/postgres'
import { qualityGate, testDeps } from '../../support/workflows'

let postgres: TestPostgres
beforeAll(async () => { postgres = await startPostgres() })
afterAll(async () => postgres?.stop())

function capture() {
  const out: string[] = []
  const err: string[] = []
  return { io: { out: (t: string) => out.push(t), err: (t: string) => err.push(t) }, out, err }
}

/** A SQLite file with a bit of everything: a workflow at two versions and its run, an experiment round, a dataset at two versions and its run. */
async function populatedSqlite() {
  const path = join(mkdtempSync(join(tmpdir(), 'judgeflow-copy-')), 'judgeflow.db')
  const store = createSqliteStore(openDatabase(path))
  const definition = qualityGate(['one', 'two'], [false, true])
  const workflow = await store.workflows.create(definition)
  await store.workflows.update(workflow.id, { ...definition, name: 'renamed' })
  const run = await store.runs.create({ definition, workflowId: workflow.id, workflowVersion: 1, input: { question: 'q' } })
  const { options } = testDeps()
  await store.runs.markStarted(run.id, 'proc')
  // Its run.finished, written as the other events are, ends the run.
  await runWorkflow(definition, { ...options, input: { question: 'q' }, onEvent: async (e) => { await store.runs.write(run.id, [e]) } })
  const experiment = await store.experiments.create({ name: 'exp', current_best: 'v1' })
  const round = await store.experiments.createRound(experiment.id, 'v1')
  await store.experiments.updateRound(round.id, { status: 'finished', runs: [{ variant: 'v1', document: 'd', run: 1, run_id: run.id }], report: { winner: 'v1' } })
  const dataset = await store.datasets.create('cases', [{ id: 'c1', input: { question: 'a' } }])
  await store.datasets.update(dataset.id, { cases: [{ id: 'c1', input: { question: 'a' } }, { id: 'c2', input: { question: 'b' } }] })
  const target = { workflow_id: workflow.id, workflow_version: 1 }
  const datasetRun = await store.datasets.createRun({ datasetId: dataset.id, datasetVersion: 1, target, options: { concurrency: 1 } })
  await store.datasets.saveRunCase({ datasetRunId: datasetRun.id, caseId: 'c1', repeat: 0, status: 'passed', runId: run.id, result: { verdict: 'pass' } })
  await store.settings.set('templates', { loaded: true })
  await store.cache.set('key', { text: 'cached' } as unknown as ChatResponse, { provider: 'openai', model: 'm' })
  await store.leases.renew({ owner: 'proc', expiresAt: 1 })
  return { path, store, workflow, run, experiment, dataset, datasetRun }
}

describe('judgeflow db copy', () => {
  it('copies a SQLite database into an empty PostgreSQL one, ids and versions kept, counted per table; refuses a non-empty one', async () => {
    const source = await populatedSqlite()
    const url = await postgres.database()
    const { io, out, err } = capture()
    expect(await main(['db', 'copy', '--from', source.path, '--to', url], io)).toBe(0)
    expect(err).toEqual([])
    expect(out[0]).toMatch(/^table\s+sqlite\s+postgres$/)
    const counts = Object.fromEntries(out.slice(1, -1).map(line => line.trim().split(/\s+/)).map(([table, a, b]) => [table, [Number(a), Number(b)]]))
    const steps = await source.store.runs.steps(source.run.id)
    const events = await source.store.runs.eventsAfter(source.run.id)
    expect(counts).toMatchObject({
      workflows: [1, 1], workflow_versions: [2, 2], runs: [1, 1], step_runs: [steps.length, steps.length], run_events: [events.length, events.length],
      experiments: [1, 1], experiment_rounds: [1, 1], datasets: [1, 1], dataset_versions: [2, 2], dataset_runs: [1, 1], dataset_run_cases: [1, 1],
      llm_cache: [1, 1], app_settings: [1, 1], lease_owners: [1, 1],
    })
    expect(Object.keys(counts)).toHaveLength(21)
    expect(out.at(-1)).toMatch(/^Copied \d+ rows in 21 tables; every table's count matches\.$/)

    const copy: Store = createPostgresStore(url, { poolSize: 2 })
    try {
      expect((await copy.workflows.get(source.workflow.id, 1))!.definition).toEqual(source.workflow.definition)
      expect(await copy.workflows.get(source.workflow.id)).toMatchObject({ version: 2, name: 'renamed' })
      expect(await copy.runs.get(source.run.id)).toEqual(await source.store.runs.get(source.run.id))
      expect(await copy.runs.steps(source.run.id)).toEqual(steps)
      expect(await copy.runs.eventsAfter(source.run.id)).toEqual(events)
      expect(await copy.experiments.round(source.experiment.id, 1)).toMatchObject({ status: 'finished', report: { winner: 'v1' } })
      expect((await copy.datasets.get(source.dataset.id, 1))!.cases).toHaveLength(1)
      expect(await copy.datasets.runCases(source.datasetRun.id)).toEqual(await source.store.datasets.runCases(source.datasetRun.id))
      expect(await copy.settings.get('templates')).toEqual({ loaded: true })
      expect(await copy.cache.get('key')).toEqual({ text: 'cached' })
      // The sequences go on after the copied ids: a new event of the run comes after the last one.
      const [next] = (await copy.runs.write(source.run.id, [{ type: 'step.started', at: 1, node_id: 'x', attempt: 1, input: {} }]))!
      expect(next!.id).toBeGreaterThan(events.at(-1)!.id)
    }
    finally {
      await copy.close()
    }

    const again = capture()
    expect(await main(['db', 'copy', '--from', source.path, '--to', url], again.io)).toBe(2)
    expect(again.err).toEqual(['The PostgreSQL database is not empty: table "workflows" has 1 row. Copy into a new, empty database.'])

    // In batches of two rows, the same rows arrive.
    const small = openPostgres(await postgres.database(), { poolSize: 2 })
    try {
      await small.ready
      const copied = await copySqliteToPostgres(source.store.handle.db, small.db, { batchSize: 2 })
      expect(Object.fromEntries(copied.map(c => [c.table, [c.sqlite, c.postgres]]))).toEqual(counts)
      expect((await small.pool.query('select count(*)::int as n from run_events')).rows[0].n).toBe(events.length)
    }
    finally {
      await small.close()
    }
    source.store.close()
  })

  it('names what is missing or wrong in its arguments', async () => {
    const run = async (...args: string[]) => {
      const { io, err } = capture()
      return [await main(['db', ...args], io), err[0]]
    }
    expect(await run('copy', '--from', 'x.db')).toEqual([2, 'db copy needs --to: judgeflow db copy --from <sqlite file> --to <postgres url>'])
    expect(await run('copy', '--to', 'postgres://h/db')).toEqual([2, 'db copy needs --from: judgeflow db copy --from <sqlite file> --to <postgres url>'])
    expect(await run('move')).toEqual([2, 'db needs a subcommand: judgeflow db copy --from <sqlite file> --to <postgres url>'])
    expect(await run('copy', '--from', '/nonexistent/j.db', '--to', 'postgres://h/db')).toEqual([2, '--from: the SQLite file "/nonexistent/j.db" does not exist.'])
    const { path } = await populatedSqlite()
    expect(await run('copy', '--from', path, '--to', 'mysql://h/db')).toEqual([2, '--to must be a PostgreSQL URL such as postgres://user:password@localhost:5432/judgeflow.'])
  })
})
