import { readdirSync } from 'node:fs'
import { getPriority, setPriority } from 'node:os'
import { parseArgs } from 'node:util'
import type { JudgeflowConfig, ResumeOutcome } from '../../core'
import { loadPostgres, openJudgeflow } from '../../main'
import { JudgeflowError } from '../../engine'
import { evaluationWorkerEntry } from '../evaluation-workers'
import type { Io } from '../io'
import { WORKER_USAGE } from '../usage'
import { COMMANDS } from '../help/commands'

export { WORKER_USAGE }

/** What stops a worker: SIGTERM or SIGINT (tests hand in their own). */
export interface StopSignal {
  once(signal: 'SIGTERM' | 'SIGINT', listener: () => void): unknown
}

/**
 * The CPU priority (nice value) a worker lowers itself to unless told otherwise: on a machine it
 * shares with the web process or PostgreSQL, those answer first (a start is answered at once, its
 * run waits in the queue), and the worker still has every cycle they leave.
 */
export const DEFAULT_WORKER_NICE = 10

/** Sets a thread's nice value; one that ended since it was listed is left alone. */
function setThreadPriority(thread: number, nice: number): void {
  try {
    setPriority(thread, nice)
  }
  catch (error) {
    if ((error as { info?: { code?: string } }).info?.code !== 'ESRCH') throw error
  }
}

/**
 * Lowers this process's CPU priority to `nice` (0–19; from a lower value only, as raising it back
 * needs privileges): the nice value it runs at. Called before the process starts its own threads.
 */
function lowerPriority(asked: number | undefined, io: Io): number {
  const current = getPriority()
  const nice = asked ?? Math.max(current, DEFAULT_WORKER_NICE)
  if (nice === current) return current
  if (nice < current) {
    throw new JudgeflowError('INVALID_INPUT', `--nice ${nice} would raise this process's CPU priority: it runs at nice ${current} already, and only a privileged user may lower that value`)
  }
  try {
    // On Linux a nice value is a thread's: each thread running already (V8's) is set, and those
    // started later (libuv's pool, the evaluation workers) take the main thread's.
    if (process.platform === 'linux') for (const thread of readdirSync('/proc/self/task')) setThreadPriority(Number(thread), nice)
    else setPriority(nice)
    return nice
  }
  catch (error) {
    if (asked !== undefined) throw new JudgeflowError('INVALID_INPUT', `--nice ${nice}: could not set this process's CPU priority: ${(error as Error).message}`)
    io.err(`judgeflow worker: could not lower this process's CPU priority to nice ${nice} (${(error as Error).message}): it runs at nice ${current}`)
    return current
  }
}

/**
 * `judgeflow worker [--concurrency N] [--nice N]`: executes the runs queued in the PostgreSQL database of
 * JUDGEFLOW_DATABASE_URL, N at a time, and takes over the runs of workers that died. Offline
 * evaluations run on worker threads within JUDGEFLOW_EVAL_TIME_LIMIT_MS, as in the server, so that
 * one cannot pin the process past its lease and hang every worker that takes its run over. SIGTERM (or
 * SIGINT) drains: no new job is taken, the runs under way get JUDGEFLOW_SHUTDOWN_GRACE_MS to finish
 * and what is left is handed over, committed steps kept; then it exits 0.
 */
export async function workerCommand(args: string[], io: Io, config: JudgeflowConfig, signals: StopSignal = process): Promise<number> {
  const { values, positionals } = parseArgs({ args, allowPositionals: true, options: COMMANDS.worker.flags })
  if (positionals.length) throw new JudgeflowError('INVALID_INPUT', `worker takes no arguments but --concurrency and --nice (got "${positionals[0]}"): ${WORKER_USAGE}`)
  const concurrency = values.concurrency === undefined ? config.runs.workerConcurrency : Number(values.concurrency)
  if (!Number.isInteger(concurrency) || concurrency < 1) {
    throw new JudgeflowError('INVALID_INPUT', `--concurrency must be a whole number of runs of at least 1, not "${values.concurrency}"`)
  }
  const asked = values.nice === undefined ? undefined : Number(values.nice)
  if (asked !== undefined && (!/^\d+$/.test(values.nice!) || asked > 19)) {
    throw new JudgeflowError('INVALID_INPUT', `--nice must be a whole number from 0 (the usual CPU priority) to 19 (the lowest), not "${values.nice}"`)
  }
  if (!config.db.url) {
    throw new JudgeflowError('INVALID_CONFIG', 'judgeflow worker executes the runs queued in PostgreSQL: set JUDGEFLOW_DATABASE_URL=postgres://… (the same as the server\'s)')
  }
  const stopped = new Promise<string>((resolve) => {
    signals.once('SIGTERM', () => resolve('SIGTERM'))
    signals.once('SIGINT', () => resolve('SIGINT'))
  })
  const nice = lowerPriority(asked, io)
  // A worker follows no run executing elsewhere (it serves no stream): the other workers' events are not its concern.
  await loadPostgres()
  const app = openJudgeflow(config, {}, { runEvents: false })
  try {
    await app.loadCustomModules()
    if (!app.startEvaluationWorkers(evaluationWorkerEntry())) io.err('judgeflow worker: JUDGEFLOW_EVAL_WORKERS is 0: offline evaluations run on the main thread, without a time limit')
    // The store's first answer: a database that cannot be reached or migrated stops here, saying why.
    await app.store.settings.get('judgeflow.worker')
    const report = ({ resumed, interrupted, failed }: ResumeOutcome) => {
      if (resumed.length || interrupted.length || failed.length) io.err(`judgeflow worker: took over ${resumed.length} run(s), marked ${interrupted.length} interrupted and ${failed.length} failed`)
    }
    report(await app.runs.resumeUnfinished())
    app.runs.watchLeases(report)
    await app.runs.work(concurrency)
    io.err(`judgeflow worker: executing queued runs, ${concurrency} at a time, at CPU priority nice ${nice} (${app.runs.owner})`)
  }
  catch (error) {
    await app.close(0).catch(() => {})
    throw error
  }
  const signal = await stopped
  io.err(`judgeflow worker: ${signal}: taking no new runs, letting the runs under way finish`)
  await app.close()
  io.err('judgeflow worker: stopped')
  return 0
}
