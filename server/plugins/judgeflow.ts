import { loadTraceCache, saveTraceCache } from '~~/engine'
import { javascriptIsolation } from '~~/engine/sandbox'
import type { ResumeOutcome } from '~~/core'
import { useJudgeflow } from '~~/server/utils/context'
import { startEvaluationWorkers } from '~~/server/utils/evaluation-workers'

/**
 * At start: create the app (opening the database, applying migrations), load custom metrics and scorers, start the evaluation workers, and pick up runs a
 * previous process left unfinished — at start, and later whenever a run's lease expires (its
 * process crashed, or hangs as a zombie) — and the rounds they belong to. Any of it failing (no
 * migrations, a database that cannot be opened, reached or migrated) stops the process, saying why:
 * never a server that listens without its app.
 */
export default defineNitroPlugin(async (nitroApp) => {
  try {
    await start(nitroApp)
  }
  catch (error) {
    console.error(`judgeflow: refusing to start: ${(error as Error).message}`)
    process.exit(1)
  }
})

async function start(nitroApp: Parameters<Parameters<typeof defineNitroPlugin>[0]>[0]): Promise<void> {
  const app = useJudgeflow()
  const { runs, config } = app
  const { metricsDir, scorersDir } = config.evaluation
  const custom = await app.loadCustomModules()
  if (custom.metrics.length) console.info(`judgeflow: loaded custom metrics ${custom.metrics.join(', ')} from ${metricsDir}`)
  if (custom.scorers.length) console.info(`judgeflow: loaded custom scorers ${custom.scorers.join(', ')} from ${scorersDir}`)
  startEvaluationWorkers(app)
  if (config.code.allow) {
    const sandbox = await javascriptIsolation(config.code.searchPath)
    console.info(sandbox.ok
      ? 'judgeflow: code assertions, transforms and code steps run in a bubblewrap sandbox (JUDGEFLOW_ALLOW_CODE)'
      : `judgeflow: JUDGEFLOW_ALLOW_CODE is set, but code assertions, transforms and code steps will be refused: ${sandbox.reason}`)
  }
  const { policy, env } = config.http
  console.info(`judgeflow: http steps call ${policy.allow ? `only ${policy.allow.join(', ')} (JUDGEFLOW_HTTP_ALLOW)` : 'public addresses only (JUDGEFLOW_HTTP_ALLOW lists others)'}${env.length ? `; their headers may read ${env.join(', ')} (JUDGEFLOW_HTTP_ENV)` : ''}`)
  const traceCacheFile = config.trace.cacheFile
  if (traceCacheFile) console.info(`judgeflow: ${loadTraceCache(app.traceCache, traceCacheFile)} trace vectors loaded from ${traceCacheFile}`)
  // With a queue (PostgreSQL), only a worker executes runs: a server started with --no-worker leaves them, and dead workers' runs, to the workers.
  const executes = !app.queue || config.runs.worker
  if (executes) {
    reportTakeover(await runs.resumeUnfinished())
    runs.watchLeases(reportTakeover)
  }
  if (app.queue && executes) {
    await runs.work(config.runs.workerConcurrency)
    console.info(`judgeflow: executing queued runs, ${config.runs.workerConcurrency} at a time`)
  }
  const rounds = await app.rounds.resume()
  if (rounds) console.info(`judgeflow: following ${rounds} unfinished experiment round(s)`)
  const datasetRuns = await app.datasets.resumeOpen()
  if (datasetRuns) console.info(`judgeflow: resumed ${datasetRuns} unfinished dataset run(s)`)
  // The spans queued by the online rules (POST /v1/traces) are scored from here, those a restart left queued first.
  app.online.start()
  nitroApp.hooks.hook('close', async () => {
    // The app stops its dataset runs (they resume at the next start), lets its runs finish (up to
    // the shutdown grace), closes the store and stops the evaluation workers; the trace cache goes after.
    await app.close()
    if (traceCacheFile) saveTraceCache(app.traceCache, traceCacheFile)
  })
}

function reportTakeover({ resumed, interrupted, failed }: ResumeOutcome): void {
  if (!resumed.length && !interrupted.length && !failed.length) return
  const gaveUp = failed.length ? `, marked ${failed.length} failed after resumes without progress (JUDGEFLOW_RUN_MAX_RESUMES)` : ''
  console.info(`judgeflow: resumed ${resumed.length} run(s), marked ${interrupted.length} interrupted${gaveUp}`)
}
