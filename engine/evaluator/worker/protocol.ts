/** The messages between the evaluation pool (main thread) and its worker threads. */
import type { SerializedError } from '../../errors'
import type { EvaluatorResult } from '../../schema/evaluator'
import type { CacheWindow } from '../../trace/vector-cache'
import type { TraceSettings } from '../context'
import type { EvaluationJob } from './runner'

/** What a worker is started with: the same custom metrics and scorers as the server, and the size of its trace vectors. */
export interface WorkerSetup {
  metricsDir?: string
  scorersDir?: string
  traceDimensions: number
  /** The process's trace settings: what its cache keeps, the embedding model. */
  trace: TraceSettings
}

export type ToWorker
  = | { type: 'evaluate', id: number, job: EvaluationJob }
    /** The answer to a worker's novelty question: the main thread holds the trace cache. */
    | { type: 'novelty', id: number, similarity: number | undefined }

export type FromWorker
  = | { type: 'ready' }
    | { type: 'start-failed', message: string }
    | { type: 'novelty', id: number, vector: Float32Array, window?: CacheWindow }
    | { type: 'done', id: number, result: EvaluatorResult }
    | { type: 'failed', id: number, error: SerializedError }
