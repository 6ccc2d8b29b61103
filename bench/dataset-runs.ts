/**
 * Dataset runs end to end: 1,000 cases through a workflow with an LLM step and a criteria judge,
 * both calling the fake LLM server (200 ms per answer, in a process of its own) through the real
 * OpenAI SDK, 16 cases at a time, in an app on a SQLite file. The ideal is 2,000 calls × 0.2 s / 16 = 25 s. Then the same
 * run on the same cases labelled, to see what judge agreement adds.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createJudgeflow, loadConfig, type Judgeflow } from '../core'
import { createSqliteStore, openDatabase } from '../db'
import { buildDatasetReport, type CaseResult, type DatasetCase, type DatasetReport } from '../engine/datasets'
import { benchGate, report, startFakeLLMProcess, type FakeLLMProcess } from './lib'

/** JUDGEFLOW_BENCH_CASES runs fewer, to profile. */
const CASES = Number(process.env.JUDGEFLOW_BENCH_CASES) || 1_000
const CONCURRENCY = 16
const LATENCY_MS = 200
const IDEAL_S = (CASES * 2 * LATENCY_MS) / 1000 / CONCURRENCY

const workflow = benchGate('bench gate')

/** The process's peak resident set size so far (VmHWM), in MiB. */
function peakRssMiB(): number {
  const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'))
  return match ? Number(match[1]) / 1024 : process.memoryUsage().rss / 2 ** 20
}

function casesOf(labelled: boolean, count = CASES): DatasetCase[] {
  return Array.from({ length: count }, (_, i) => ({
    id: `q${i}`,
    input: { question: `question ${i}${i % 4 === 0 ? ' (vague)' : ''}` },
    ...(labelled ? { expected: { verdict: i % 5 === 0 ? 'fail' as const : 'pass' as const, score: (i % 10) / 10 } } : {}),
  }))
}

interface Measured {
  seconds: number
  /** CPU time of the app's process per case. */
  cpuMsPerCase: number
  committed: number
  report: DatasetReport
}

async function runOnce(app: Judgeflow, fake: FakeLLMProcess, name: string, labelled: boolean, count = CASES): Promise<Measured> {
  await app.store.datasets.create(name, casesOf(labelled, count))
  await fake.reset()
  const t0 = performance.now()
  const cpu0 = process.cpuUsage()
  const started = await app.datasets.start({ dataset: name, target: { workflow_id: workflow.name }, concurrency: CONCURRENCY })
  await app.datasets.whenDone(started.id)
  const seconds = (performance.now() - t0) / 1000
  const cpu = process.cpuUsage(cpu0)
  const cpuMsPerCase = (cpu.user + cpu.system) / 1000 / count
  const row = (await app.store.datasets.getRun(started.id))!
  const committed = (await app.store.datasets.runCases(started.id)).filter(c => c.status !== 'running' && c.result).length
  const result = row.report as unknown as DatasetReport
  // The figures mean nothing unless every case ran through both calls and was committed with a result.
  if (row.status !== 'finished') throw new Error(`the dataset run ${row.status}: ${JSON.stringify(row.error)}`)
  if (committed !== count || result.cases !== count || result.errored !== 0) throw new Error(`${committed} of ${count} cases committed, ${result.errored} errored`)
  const calls = await fake.count()
  if (calls !== count * 2) throw new Error(`${calls} calls to the fake LLM server, not ${count * 2}`)
  return { seconds, cpuMsPerCase, committed, report: result }
}

export async function benchDatasetRuns(): Promise<void> {
  const fake = await startFakeLLMProcess(LATENCY_MS)
  const folder = mkdtempSync(join(tmpdir(), 'judgeflow-bench-'))
  const config = loadConfig({ ...fake.env, JUDGEFLOW_LLM_MAX_RETRIES: '0', JUDGEFLOW_MAX_CONCURRENT_RUNS: String(CONCURRENCY) })
  const app = createJudgeflow(config, { store: createSqliteStore(openDatabase(join(folder, 'bench.db'))) })
  try {
    await app.store.workflows.create(workflow)
    // A short run first, so neither measured run pays for loading modules and warming up.
    await runOnce(app, fake, 'warm-up', false, 64)
    const plain = await runOnce(app, fake, 'unlabelled', false)
    report({ name: `dataset run: ${CASES} cases × (LLM step + criteria judge) at ${LATENCY_MS} ms through the OpenAI SDK, concurrency ${CONCURRENCY}, wall time (ideal ${IDEAL_S} s)`, value: plain.seconds, unit: 's', target: '<= 30' })
    report({ name: 'that run: cases committed with a result', value: plain.committed, unit: 'cases', target: `= ${CASES}` })
    report({ name: 'that run: wall time over the ideal', value: plain.seconds / IDEAL_S, unit: '×', target: '<= 1.2' })
    // Where the time goes: inside the case runs (executor, SDK, step writes), or between them (the dataset run's own work).
    const latencies = plain.report.results.map(r => r.latency_ms ?? 0)
    const meanRun = latencies.reduce((sum, ms) => sum + ms, 0) / latencies.length
    report({ name: `that run: mean case run time (ideal ${2 * LATENCY_MS} ms)`, value: meanRun, unit: 'ms', target: 'reported' })
    report({ name: 'that run: CPU time of the app\'s process per case', value: plain.cpuMsPerCase, unit: 'ms', target: 'reported' })
    report({ name: 'that run: wall time beyond its case runs (Σ run time / concurrency), the dataset run\'s own share', value: plain.seconds - (meanRun * CASES) / 1000 / CONCURRENCY, unit: 's', target: 'reported' })
    const labelled = await runOnce(app, fake, 'labelled', true)
    report({ name: `the same run on ${CASES} labelled cases (judge agreement computed), wall time`, value: labelled.seconds, unit: 's', target: '<= 30' })
    report({ name: 'labelled run over unlabelled run, wall time', value: labelled.seconds / plain.seconds, unit: '×', target: '<= 1.05' })
    if (!labelled.report.agreement) throw new Error('the labelled run has no agreement')
    // Agreement's own cost, apart from the noise of two 25 s runs on a shared machine: the report built with and without labels.
    const results = labelled.report.results.map(r => ({
      ...r, score: r.score ?? undefined, verdict: r.verdict ?? undefined, run_id: r.run_id ?? undefined, latency_ms: r.latency_ms ?? undefined,
    })) as CaseResult[]
    const build = (cases: DatasetCase[]) => {
      const t0 = performance.now()
      buildDatasetReport({ dataset: { id: 'd', name: 'bench', version: 1, cases }, target: { evaluator: true }, results })
      return performance.now() - t0
    }
    const withLabels = Math.min(...[0, 1, 2].map(() => build(casesOf(true))))
    const withoutLabels = Math.min(...[0, 1, 2].map(() => build(casesOf(false))))
    report({ name: `judge agreement on ${CASES} labelled cases (κ bootstrap included): its share of the run's wall time`, value: ((withLabels - withoutLabels) / 1000 / plain.seconds) * 100, unit: '%', target: '<= 5' })
    report({ name: 'peak RSS of the app\'s process (the fake LLM server runs apart)', value: peakRssMiB(), unit: 'MiB', target: 'reported' })
  }
  finally {
    await app.close(0)
    fake.child.kill()
    rmSync(folder, { recursive: true, force: true })
  }
}
