import { parseArgs } from 'node:util'
import type { JudgeflowConfig, ResumeOutcome } from '../../core'
import { openJudgeflow } from '../../main'
import { JudgeflowError } from '../../engine'
import { evaluationWorkerEntry } from '../evaluation-workers'
import type { Io } from '../io'
import { WORKER_USAGE } from '../usage'

export { WORKER_USAGE }

/** What stops a worker: SIGTERM or SIGINT (tests hand in their own). */
export interface StopSignal {
  once(signal: 'SIGTERM' | 'SIGINT', listener: () => void): unknown
}

/**
 * `judgeflow worker [--concurrency N]`: executes the runs queued in the PostgreSQL database of
 * JUDGEFLOW_DATABASE_URL, N at a time, and takes over the runs of workers that died. Offline
 * evaluations run on worker threads within JUDGEFLOW_EVAL_TIME_LIMIT_MS, as in the server, so that
 * one cannot pin the process past its lease and hang every worker that takes its run over. SIGTERM (or
 * SIGINT) drains: no new job is taken, the runs under way get JUDGEFLOW_SHUTDOWN_GRACE_MS to finish
 * and what is left is handed over, committed steps kept; then it exits 0.
 */
export async function workerCommand(args: string[], io: Io, config: JudgeflowConfig, signals: StopSignal = process): Promise<number> {
  const { values, positionals } = parseArgs({ args, allowPositionals: true, options: { concurrency: { type: 'string' } } })
  if (positionals.length) throw new JudgeflowError('INVALID_INPUT', `worker takes no arguments but --concurrency (got "${positionals[0]}"): ${WORKER_USAGE}`)
  const concurrency = values.concurrency === undefined ? config.runs.workerConcurrency : Number(values.concurrency)
  if (!Number.isInteger(concurrency) || concurrency < 1) {
    throw new JudgeflowError('INVALID_INPUT', `--concurrency must be a whole number of runs of at least 1, not "${values.concurrency}"`)
  }
  if (!config.db.url) {
    throw new JudgeflowError('INVALID_CONFIG', 'judgeflow worker executes the runs queued in PostgreSQL: set JUDGEFLOW_DATABASE_URL=postgres://… (the same as the server\'s)')
  }
  const stopped = new Promise<string>((resolve) => {
    signals.once('SIGTERM', () => resolve('SIGTERM'))
    signals.once('SIGINT', () => resolve('SIGINT'))
  })
  const app = openJudgeflow(config)
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
    io.err(`judgeflow worker: executing queued runs, ${concurrency} at a time (${app.runs.owner})`)
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
