import { JudgeflowError } from '../../errors'
import type { EvaluationRunner } from './runner'

export const QUEUE_LIMIT_VARIABLE = 'JUDGEFLOW_MAX_QUEUED_EVALUATIONS'
/** Evaluations asked directly that may wait for a worker thread at once (JUDGEFLOW_MAX_QUEUED_EVALUATIONS). */
export const DEFAULT_MAX_QUEUED_EVALUATIONS = 16

/** A runner that has a waiting line (the evaluation pool). */
export interface QueueingRunner extends EvaluationRunner {
  readonly waiting: number
  readonly timeLimitMs: number
}

/**
 * The runner for evaluations asked directly (POST /api/evaluate): one that would wait behind
 * `maxQueued` others is refused at once, TOO_MANY_EVALUATIONS, instead of waiting minutes. The
 * steps of runs go to the pool itself and wait their turn: their number is bounded by the run
 * slots already, and a step refused for someone else's traffic would fail a run for nothing.
 * Retry-After is the time limit: by then the evaluation on each worker has finished or been stopped.
 */
export function refusingWhenQueued(runner: QueueingRunner, maxQueued: number): EvaluationRunner {
  return {
    run(job, signal) {
      const waiting = runner.waiting
      if (waiting < maxQueued) return runner.run(job, signal)
      const retryAfterS = Math.ceil(runner.timeLimitMs / 1000)
      const already = waiting === 1 ? '1 evaluation is' : `${waiting} evaluations are`
      return Promise.reject(new JudgeflowError('TOO_MANY_EVALUATIONS',
        `${already} already waiting for an evaluation worker, the most ${QUEUE_LIMIT_VARIABLE} allows (${maxQueued}): try again in ${retryAfterS} s, or raise ${QUEUE_LIMIT_VARIABLE}.`,
        { details: { variable: QUEUE_LIMIT_VARIABLE, limit: maxQueued, retry_after_s: retryAfterS } }))
    },
  }
}
