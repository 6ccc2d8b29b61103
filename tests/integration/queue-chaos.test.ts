import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { lastUserText } from '../support/fake-llm'
import { useServersWithFakeLLM, waitFor } from '../support/app-server'
import { startPostgres, type TestPostgres } from '../support/postgres'
import { startWorker, type WorkerProcess } from '../support/workers'
import { gateAround, JUDGE_SAYS_PASS } from '../support/workflows'

/**
 * Seeded trials of the queue under failure: a server that only queues runs, 3 worker processes, a
 * dataset run of 40 cases (12 at a time, each case a run of the gate with a slower draft) and 30 runs
 * of a quality gate started at once (the fake judge answers in 100 ms); one worker SIGKILLed at a
 * random moment and a replacement started. Every run ends succeeded, with one end; the dataset run
 * finishes with one result per case, each from one run, run on more than one worker; every step
 * committed before the kill is unchanged and was asked of the model once. JUDGEFLOW_CHAOS_TRIALS
 * sets the number of trials (the 20; 3 by default, to keep the suite's time).
 */
const TRIALS = Number(process.env.JUDGEFLOW_CHAOS_TRIALS ?? 3)
const RUNS = 30
/** The dataset run's cases: inputs n = 100, 101, …, so their prompts are their own. */
const CASES = 40
const { fake, start } = useServersWithFakeLLM({ beforeAll, afterAll })
let postgres: TestPostgres
beforeAll(async () => { postgres = await startPostgres() }, 60_000)
afterAll(async () => postgres?.stop())

/** Draft, judge (fails the first draft of odd-numbered runs), check, retry: each prompt names its run; no response cache, so every execution asks. */
const gate = gateAround('Quality gate', [
  { id: 'in', type: 'input', config: { fields: { n: { type: 'number', required: true } } } },
  { id: 'draft', type: 'llm', config: { model: 'openai:gpt-4o-mini', prompt: 'draft {{input.n}} attempt {{attempt}}', cache: false } },
  { id: 'judge', type: 'llm', config: { model: 'openai:gpt-4o-mini', prompt: 'judge {{input.n}}: {{steps.draft.text}}', cache: false } },
], JUDGE_SAYS_PASS)

function random(seed: number) {
  return () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31)
}

describe('the run queue under SIGKILLs', () => {
  it(`loses no run or case and repeats no committed step in ${TRIALS} seeded trials of 3 workers, ${RUNS} runs and a dataset run of ${CASES} cases`, async () => {
    fake.onRequest((request) => {
      const [kind, n, , attempt] = lastUserText(request).split(/[\s:]+/)
      if (kind === 'draft') return { text: `draft of ${n} (${attempt})`, delayMs: Number(n) >= 100 ? 300 : 50 }
      return { text: Number(n) % 2 === 0 || lastUserText(request).includes('(2)') ? 'pass' : 'fail', delayMs: 100 }
    })
    const next = random(20261124)
    let killedMidRun = 0
    let killedMidCase = 0
    for (let trial = 0; trial < TRIALS; trial++) {
      fake.requests.length = 0
      const url = await postgres.database()
      const env = { ...fake.env(), JUDGEFLOW_RUN_LEASE_MS: '1500' }
      const web = await start({ env: { ...env, JUDGEFLOW_DATABASE_URL: url, JUDGEFLOW_WORKER: '0' } })
      const workers: WorkerProcess[] = await Promise.all([0, 1, 2].map(() => startWorker(url, env, ['--concurrency', '10'])))
      try {
        const { body: wf } = await web.api('/api/workflows', { body: gate })
        const cases = Array.from({ length: CASES }, (_, i) => ({ id: `case-${i}`, input: { n: 100 + i } }))
        expect((await web.api('/api/datasets', { body: { name: 'chaos cases', cases } })).status).toBe(201)
        const datasetRun = await web.api('/api/dataset-runs', { body: { dataset: 'chaos cases', target: { workflow_id: wf.id }, concurrency: 12 } })
        expect(datasetRun.status, JSON.stringify(datasetRun.body)).toBe(202)
        const ids = await Promise.all(Array.from({ length: RUNS }, async (_, n) => (await web.api(`/api/workflows/${wf.id}/runs`, { body: { input: { n } } })).body.id as string))
        await new Promise(resolve => setTimeout(resolve, 200 + Math.floor(next() * 800)))
        const victim = workers[Math.floor(next() * workers.length)]!
        await victim.stop('SIGKILL')
        const client = new pg.Client({ connectionString: url })
        await client.connect()
        const before = (await client.query(`select s.run_id, s.node_id, s.attempt, s.output::text as output, s.input::text as input from step_runs s where s.status = 'succeeded' and s.node_id in ('draft', 'judge')`)).rows
        const { rows: [mid] } = await client.query(`select count(*)::int as n from runs where status = 'running' and lease_owner like $1`, [`%:${victim.process.pid}:%`])
        if (mid.n) killedMidRun++
        const { rows: [midCase] } = await client.query(`select count(*)::int as n from runs r join dataset_run_cases c on c.run_id = r.id where r.status = 'running' and r.lease_owner like $1`, [`%:${victim.process.pid}:%`])
        if (midCase.n) killedMidCase++
        workers.push(await startWorker(url, env, ['--concurrency', '10']))
        await waitFor(async () => (await web.api(`/api/dataset-runs/${datasetRun.body.id}`)).body.status !== 'running', 60_000, `trial ${trial}: the dataset run to end`)
        await waitFor(async () => (await client.query(`select count(*)::int as n from runs where status in ('queued', 'running')`)).rows[0].n === 0, 60_000, `trial ${trial}: every run to end`)
        // The dataset run: one result per case, each from one run that succeeded once, executed on more than one worker.
        const { body: ended } = await web.api(`/api/dataset-runs/${datasetRun.body.id}`)
        expect(ended, `trial ${trial}`).toMatchObject({ status: 'finished', report: { cases: CASES, errored: 0 } })
        const results = ended.report.results as { case_id: string, run_id: string }[]
        expect(results.map(r => r.case_id).sort(), `trial ${trial}: a result per case`).toEqual(cases.map(c => c.id).sort())
        const caseRuns = (await client.query(`select id, status, lease_owner from runs where (input->>'n')::int >= 100`)).rows
        expect(caseRuns.map(r => r.id).sort(), `trial ${trial}: one run per case`).toEqual(results.map(r => r.run_id).sort())
        expect(caseRuns.every(r => r.status === 'succeeded'), `trial ${trial}: every case's run succeeded`).toBe(true)
        expect(new Set(caseRuns.map(r => r.lease_owner)).size, `trial ${trial}: cases ran on more than one worker`).toBeGreaterThan(1)
        const { rows: runs } = await client.query(`select id, status, output from runs where id = any($1)`, [ids])
        expect(runs.map(r => r.status), `trial ${trial}`).toEqual(Array(RUNS).fill('succeeded'))
        const { rows: ends } = await client.query(`select run_id, count(*)::int as n from run_events where type = 'run.finished' group by run_id`)
        expect(ends.every(e => e.n === 1) && ends.length === RUNS + CASES, `trial ${trial}: one end per run`).toBe(true)
        for (const row of before) {
          const { rows: [kept] } = await client.query('select status, output::text as output from step_runs where run_id = $1 and node_id = $2 and attempt = $3', [row.run_id, row.node_id, row.attempt])
          expect(kept, `trial ${trial}: ${row.node_id} of ${row.run_id}`).toEqual({ status: 'succeeded', output: row.output })
          const { prompt } = JSON.parse(row.input) as { prompt: string }
          expect(fake.requests.filter(r => lastUserText(r) === prompt), `trial ${trial}: ${prompt} asked once`).toHaveLength(1)
        }
        await client.end()
      }
      finally {
        for (const worker of workers) await worker.stop('SIGKILL')
        await web.stop('SIGKILL')
      }
    }
    expect(killedMidRun).toBeGreaterThanOrEqual(TRIALS / 2)
    console.log(`killed mid-run in ${killedMidRun}, mid-case in ${killedMidCase} of ${TRIALS} trials`)
    expect(killedMidCase).toBeGreaterThanOrEqual(TRIALS / 2)
  }, 600_000)
})
