import { resolve } from 'node:path'
import { defaultMetricRegistry, loadMetricsFolder, loadScorersFolder, loadTraceCache, saveTraceCache, sharedTraceCache, type VectorCache } from '../../engine'
import type { ResumeOutcome } from '../../db'
import { serverLimits } from '../utils/config'
import { useJudgeflow } from '../utils/context'
import { startEvaluationWorkers } from '../utils/evaluation-workers'
import { resumeRounds } from '../utils/experiments'
import { loadTemplatesOnFirstStart } from '../utils/templates'

/**
 * At start: open the database (applying migrations), load the templates into a new database,
 * load custom metrics and scorers, start the evaluation workers, and pick up runs a previous
 * process left unfinished — at start, and later whenever a run's lease expires (its process
 * crashed, or hangs as a zombie).
 */
export default defineNitroPlugin(async (nitroApp) => {
  let traceCache: VectorCache
  try {
    serverLimits()
    // Built now, so a bad JUDGEFLOW_TRACE_CACHE_SIZE or _TTL_MS stops the start with its name.
    traceCache = sharedTraceCache()
  }
  catch (error) {
    console.error(`judgeflow: refusing to start: ${(error as Error).message}`)
    process.exit(1)
  }
  const { runs, handle } = useJudgeflow()
  const templates = loadTemplatesOnFirstStart(handle.db)
  if (templates) console.info(`judgeflow: loaded ${templates} template workflows`)
  const metricsDir = resolve(process.env.JUDGEFLOW_METRICS_DIR ?? 'metrics')
  const metrics = await loadMetricsFolder(metricsDir, defaultMetricRegistry)
  if (metrics.length) console.info(`judgeflow: loaded custom metrics ${metrics.join(', ')} from ${metricsDir}`)
  const scorersDir = resolve(process.env.JUDGEFLOW_SCORERS_DIR ?? 'scorers')
  const scorers = await loadScorersFolder(scorersDir)
  if (scorers.length) console.info(`judgeflow: loaded custom scorers ${scorers.join(', ')} from ${scorersDir}`)
  const evaluationWorkers = startEvaluationWorkers({ metricsDir, scorersDir })
  const traceCacheFile = process.env.JUDGEFLOW_TRACE_CACHE_FILE
  if (traceCacheFile) console.info(`judgeflow: ${loadTraceCache(traceCache, traceCacheFile)} trace vectors loaded from ${traceCacheFile}`)
  reportTakeover(runs.resumeUnfinished())
  runs.watchLeases(reportTakeover)
  const rounds = resumeRounds()
  if (rounds) console.info(`judgeflow: following ${rounds} unfinished experiment round(s)`)
  nitroApp.hooks.hook('close', async () => {
    await runs.drain()
    await evaluationWorkers?.close()
    if (traceCacheFile) saveTraceCache(traceCache, traceCacheFile)
    handle.close()
  })
})

function reportTakeover({ resumed, interrupted, failed }: ResumeOutcome): void {
  if (!resumed.length && !interrupted.length && !failed.length) return
  const gaveUp = failed.length ? `, marked ${failed.length} failed after resumes without progress (JUDGEFLOW_RUN_MAX_RESUMES)` : ''
  console.info(`judgeflow: resumed ${resumed.length} run(s), marked ${interrupted.length} interrupted${gaveUp}`)
}
