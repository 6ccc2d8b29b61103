/**
 * Offline evaluations — the heuristic judge, the scorers, trace scoring — are CPU work with nothing
 * to wait on. A server runs them through a runner (a pool of worker threads, see pool.ts) so that
 * one large evaluation cannot hold up every other request; evaluations judged by an LLM wait on the
 * network and stay on the calling thread. Without a runner (the CLI, tests) everything runs in place.
 */
import type { EvaluationInput, EvaluatorResult } from '../../schema/evaluator'

/** One evaluation as the runner gets it: the config as given, the validated input. */
export interface EvaluationJob {
  config: unknown
  input: EvaluationInput
  /** The judge for a config that names none, as the caller's providers resolve it. */
  defaultJudge: string
  candidateIds?: string[]
}

export interface EvaluationRunner {
  run(job: EvaluationJob, signal?: AbortSignal): Promise<EvaluatorResult>
}
