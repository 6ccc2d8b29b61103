import { existsSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { EvaluationPool, evaluationPoolOptionsFromEnv, setEvaluationRunner } from '../../engine'

/** Bundled by the build (nuxt.config.ts) beside the server entry, `.output/server/`. */
export const EVALUATION_WORKER_FILE = 'evaluation-worker.mjs'

/** This module sits in a chunk a few folders below the server entry. */
function bundledWorker(): URL | undefined {
  let folder = dirname(fileURLToPath(import.meta.url))
  for (let up = 0; up < 4; up++, folder = dirname(folder)) {
    const file = join(folder, EVALUATION_WORKER_FILE)
    if (existsSync(file)) return pathToFileURL(file)
  }
  return undefined
}

/**
 * Offline evaluations (heuristic judge, scorers, trace) run on worker threads with a time limit,
 * so that one large evaluation cannot stall the server. Returns the pool, or undefined when they
 * run on the main thread (JUDGEFLOW_EVAL_WORKERS=0, or a development server without the bundle).
 */
export function startEvaluationWorkers(folders: { metricsDir: string, scorersDir: string }): EvaluationPool | undefined {
  const { size, timeLimitMs } = evaluationPoolOptionsFromEnv(process.env)
  if (!size) {
    console.info('judgeflow: JUDGEFLOW_EVAL_WORKERS is 0: offline evaluations run on the main thread, without a time limit')
    return undefined
  }
  const entry = bundledWorker()
  if (!entry) {
    console.warn(`judgeflow: no ${EVALUATION_WORKER_FILE} beside the server (run \`npx nuxt build\`): offline evaluations run on the main thread, without a time limit`)
    return undefined
  }
  const pool = new EvaluationPool({ entry, size, timeLimitMs, ...folders })
  setEvaluationRunner(pool)
  return pool
}
