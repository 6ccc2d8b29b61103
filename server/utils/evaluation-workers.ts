import { bundledFile } from './bundled-file'
import type { Judgeflow } from '~~/core'
import type { EvaluationPool } from '~~/engine'

/** Bundled by the build (nuxt.config.ts) beside the server entry, `.output/server/`. */
export const EVALUATION_WORKER_FILE = 'evaluation-worker.mjs'

/**
 * Offline evaluations (heuristic judge, scorers, trace) run on worker threads with a time limit,
 * so that one large evaluation cannot stall the server (`app.startEvaluationWorkers`, as in
 * `judgeflow worker`). Returns the pool, or undefined when evaluations run on the main thread
 * (JUDGEFLOW_EVAL_WORKERS=0, or a development server without the bundle).
 */
export function startEvaluationWorkers(app: Judgeflow): EvaluationPool | undefined {
  if (!app.config.evaluation.workers) {
    console.info('judgeflow: JUDGEFLOW_EVAL_WORKERS is 0: offline evaluations run on the main thread, without a time limit')
    return undefined
  }
  const entry = bundledFile(EVALUATION_WORKER_FILE)
  if (!entry) {
    console.warn(`judgeflow: no ${EVALUATION_WORKER_FILE} beside the server (run \`npx nuxt build\`): offline evaluations run on the main thread, without a time limit`)
    return undefined
  }
  return app.startEvaluationWorkers(entry)
}
