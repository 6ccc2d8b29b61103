/**
 * A dataset run spread over the PostgreSQL queue: 1,000 cases through an LLM step and a criteria
 * judge (the fake LLM server at 200 ms in a process of its own, through the real OpenAI SDK),
 * started from an app that only queues runs, executed by 1, 2 and 4 `judgeflow worker` processes
 * with 16 cases in flight each (the dataset run's concurrency is 16 × the workers), on a loopback
 * PostgreSQL. Wall time, the speed-up over one worker, how many workers ran cases, and where the
 * CPU went per case. BENCH_WORKERS=4 (or 1,4) measures only those; BENCH_PG_STATEMENTS=1 prints the
 * database's statements per case (bench/pg-statements.ts).
 */
import { loadConfig, type Judgeflow } from '../core'
import { openJudgeflow, usePostgres } from '../main'
import { postgres as postgresCode } from '../main/postgres'
import type { DatasetReport } from '../engine/datasets'
import { startPostgres } from '../tests/support/postgres'
import { startWorker, type WorkerProcess } from '../tests/support/workers'
import { benchGate, report, startFakeLLMProcess, type FakeLLMProcess } from './lib'
import { cpuByKind, sample } from './process-usage'
import { printStatements, resetStatements, statementsWanted } from './pg-statements'
import { processKind } from './queue-workers'

const LATENCY_MS = 200
const PER_WORKER = 16
/** JUDGEFLOW_BENCH_CASES runs fewer, to profile. */
const CASES = Number(process.env.JUDGEFLOW_BENCH_CASES) || 1_000

const workflow = benchGate('bench dataset gate')
const casesOf = (count: number) => Array.from({ length: count }, (_, i) => ({ id: `q${i}`, input: { question: `question ${i}${i % 4 === 0 ? ' (vague)' : ''}` } }))

/** One dataset run to its end: seconds, and its case runs. */
async function datasetRun(app: Judgeflow, fake: FakeLLMProcess, name: string, count: number, concurrency: number) {
  await app.store.datasets.create(name, casesOf(count))
  await fake.reset()
  const t0 = performance.now()
  const started = await app.datasets.start({ dataset: name, target: { workflow_id: workflow.name }, concurrency })
  await app.datasets.whenDone(started.id)
  const seconds = (performance.now() - t0) / 1000
  const row = (await app.store.datasets.getRun(started.id))!
  const result = row.report as unknown as DatasetReport
  // The figures mean nothing unless every case ran through both calls and was committed with a result.
  if (row.status !== 'finished' || result.cases !== count || result.errored !== 0) throw new Error(`the dataset run ${row.status}: ${result?.cases} cases, ${result?.errored} errored`)
  const calls = await fake.count()
  if (calls !== count * 2) throw new Error(`${calls} calls to the fake LLM server, not ${count * 2}`)
  return { seconds, runIds: result.results.map(c => c.run_id!) }
}

/** How many workers (lease owners) the runs executed on. */
async function workersOf(app: Judgeflow, runIds: string[]): Promise<number> {
  const owners = new Set<string>()
  for (const id of runIds) owners.add((await app.store.runs.get(id))!.leaseOwner ?? '')
  return owners.size
}

export async function benchDatasetWorkers(): Promise<void> {
  const fake = await startFakeLLMProcess(LATENCY_MS)
  const postgres = await startPostgres({ statements: statementsWanted() })
  const env = { ...fake.env, JUDGEFLOW_LLM_MAX_RETRIES: '0' }
  const times = new Map<number, number>()
  try {
    for (const count of (process.env.BENCH_WORKERS ?? '1,2,4').split(',').map(Number)) {
      const url = await postgres.database()
      const concurrency = PER_WORKER * count
      usePostgres(postgresCode)
      const web = openJudgeflow(loadConfig({ ...env, JUDGEFLOW_DATABASE_URL: url, JUDGEFLOW_MAX_QUEUED_RUNS: String(concurrency * 2) }))
      const workers: WorkerProcess[] = []
      try {
        await web.store.workflows.create(workflow)
        // BENCH_CPU_PROF=<folder>: each worker writes a V8 CPU profile there as it exits.
        const nodeArgs = process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : []
        workers.push(...await Promise.all(Array.from({ length: count }, () => startWorker(url, env, ['--concurrency', String(PER_WORKER)], undefined, nodeArgs))))
        await datasetRun(web, fake, 'warm-up', concurrency * 2, concurrency)
        if (statementsWanted()) await resetStatements(url)
        const before = sample(processKind)
        const { seconds, runIds } = await datasetRun(web, fake, 'measured', CASES, concurrency)
        const cpu = cpuByKind(before, sample(processKind))
        const ranOn = await workersOf(web, runIds)
        times.set(count, seconds)
        if (statementsWanted()) await printStatements(url, CASES, 'case', `${count} worker(s)`)
        const ideal = (CASES * 2 * LATENCY_MS) / 1000 / concurrency
        report({ name: `dataset run over the PostgreSQL queue: ${CASES} cases × (LLM step + criteria judge) at ${LATENCY_MS} ms, ${count} worker(s) × ${PER_WORKER} cases in flight, wall time (ideal ${ideal} s)`, value: seconds, unit: 's', target: 'reported' })
        report({ name: `that run: workers its cases ran on, of ${count}`, value: ranOn, unit: 'workers', target: `= ${count}` })
        const perCase = (kind: string) => (cpu.get(kind) ?? 0) / CASES
        const parts = `workers ${perCase('worker').toFixed(1)}, PostgreSQL ${perCase('PostgreSQL').toFixed(1)}, the starting process ${perCase('driver').toFixed(1)}`
        report({ name: `that run: CPU per case, the fake LLM left out (${parts})`, value: perCase('worker') + perCase('PostgreSQL') + perCase('driver'), unit: 'ms', target: 'reported' })
      }
      finally {
        for (const worker of workers) await worker.stop('SIGTERM')
        await web.close(0)
      }
    }
    if (times.size < 3) return
    const one = times.get(1)!
    report({ name: 'dataset run over the queue: 2 workers over 1, speed-up', value: one / times.get(2)!, unit: '×', target: '>= 1.8' })
    report({ name: 'dataset run over the queue: 4 workers over 1, speed-up', value: one / times.get(4)!, unit: '×', target: '>= 3.2' })
  }
  finally {
    fake.child.kill()
    await postgres.stop()
  }
}
