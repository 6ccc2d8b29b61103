/**
 * An evaluation worker thread: loads the custom metrics and scorers the server loaded, then runs
 * the evaluations it is sent, one at a time, with the same `evaluate` as everywhere else. It makes
 * no LLM call: only offline evaluations are sent here.
 */
import { parentPort, workerData } from 'node:worker_threads'
import { JudgeflowError, serializeError } from '../../errors'
import type { Providers } from '../../providers/types'
import { loadScorersFolder, ScorerRegistry } from '../../scorers/registry'
import type { NoveltyMemory } from '../../trace/vector-cache'
import { evaluate } from '../index'
import { loadMetricsFolder, MetricRegistry } from '../metrics/registry'
import type { FromWorker, ToWorker, WorkerSetup } from './protocol'

const port = parentPort!
const setup = workerData as WorkerSetup
const send = (message: FromWorker) => port.postMessage(message)
/** This thread's registries: the built-ins and the same custom folders as the app that started it. */
const metrics = new MetricRegistry()
const scorers = new ScorerRegistry()

function offlineProviders(defaultJudge: string): Providers {
  return {
    check() {},
    async complete(modelRef) {
      throw new JudgeflowError('INTERNAL', `${modelRef} was called on an evaluation worker, which runs offline evaluations only.`, { category: 'system' })
    },
    async embed(modelRef) {
      throw new JudgeflowError('INTERNAL', `${modelRef} was called on an evaluation worker, which runs offline evaluations only.`, { category: 'system' })
    },
    defaultJudgeModel: () => defaultJudge,
  }
}

/** Novelty is asked of the main thread, which holds the process's trace cache. */
const noveltyAnswers = new Map<number, (similarity: number | undefined) => void>()
function remoteTraceCache(id: number): NoveltyMemory {
  return {
    dimensions: setup.traceDimensions,
    compareAndAdd: (vector, window) => new Promise((resolve) => {
      noveltyAnswers.set(id, resolve)
      send({ type: 'novelty', id, vector, window })
    }),
  }
}

async function run(id: number, job: Extract<ToWorker, { type: 'evaluate' }>['job']) {
  try {
    const result = await evaluate(job.config, job.input, {
      providers: offlineProviders(job.defaultJudge), metrics, scorers, candidateIds: job.candidateIds,
      traceCache: remoteTraceCache(id), trace: setup.trace, runner: null,
    })
    send({ type: 'done', id, result })
  }
  catch (error) {
    send({ type: 'failed', id, error: serializeError(error) })
  }
  finally {
    noveltyAnswers.delete(id)
  }
}

try {
  if (setup.metricsDir) await loadMetricsFolder(setup.metricsDir, metrics)
  if (setup.scorersDir) await loadScorersFolder(setup.scorersDir, scorers)
  port.on('message', (message: ToWorker) => {
    if (message.type === 'novelty') noveltyAnswers.get(message.id)?.(message.similarity)
    else void run(message.id, message.job)
  })
  send({ type: 'ready' })
}
catch (error) {
  send({ type: 'start-failed', message: (error as Error).message })
}
