import type { SerializedError } from '../errors'
import type { AwaitingComparison } from '../assertions/types'
import type { RunResult } from '../executor/types'
import { buildGraph, topologicalOrder } from '../graph/topology'
import type { Workflow } from '../schema/workflow'
import type { CaseRunOutcome, CaseTask } from './runner'
import type { CaseResult, CasePanel, CaseTokens } from './schema'
import { checksOf, outputOf, reasonOf } from './case-checks'
import { stepWarnings } from '../executor/step-warnings'

/** What a finished run of a case tells: its id, result, wall time and tokens. */
export interface FinishedCaseRun {
  id: string
  result: RunResult
  latency_ms: number
  tokens?: CaseTokens
  cost_usd?: number | null
}

/**
 * The evaluator step whose `overall_score` is a case's score: `scoreStep` when given, else the
 * last evaluator step (in the graph's order) that succeeded in this run. Undefined when none did.
 */
export function scoredStep(workflow: Workflow, result: RunResult, scoreStep?: string): string | undefined {
  if (scoreStep) return result.steps[scoreStep]?.status === 'succeeded' ? scoreStep : undefined
  const evaluators = new Set(workflow.nodes.filter(n => n.type === 'evaluator').map(n => n.id))
  const { order } = topologicalOrder(buildGraph(workflow))
  return order.filter(id => evaluators.has(id) && result.steps[id]?.status === 'succeeded').at(-1)
}

/**
 * A case's result from its finished run. A run that succeeded: its verdict (or, when no output
 * step gives one, whether the scored evaluator passed), the scored evaluator's `overall_score` and
 * `confidence`. A run the provider refused for its rate: `rate_limited`, to be run again. Any other
 * failure, a cancelled run, or a run with no verdict at all: `errored`, never a pass.
 */
export function caseRunOutcome(task: CaseTask, workflow: Workflow, run: FinishedCaseRun, options: { scoreStep?: string } = {}): CaseRunOutcome {
  const base: CaseResult = {
    ...task, status: 'errored', run_id: run.id, latency_ms: Math.round(run.latency_ms),
    ...(run.tokens ? { tokens: run.tokens } : {}), ...(run.cost_usd === undefined ? {} : { cost_usd: run.cost_usd }),
  }
  const { result } = run
  if (result.status !== 'succeeded') {
    const error = result.error ?? firstStepError(result)
    const limited = rateLimit(error)
    if (limited) return { kind: 'rate_limited', retryAfterMs: limited.retryAfterMs, error: error!.message }
    return { kind: 'result', result: { ...base, error: error?.message ?? `the run ended ${result.status}` } }
  }
  const step = scoredStep(workflow, result, options.scoreStep)
  type Evaluation = {
    passed?: unknown
    overall_score?: unknown
    confidence?: unknown
    graded_output?: unknown
    awaiting_comparison?: AwaitingComparison
    panel?: CasePanel
    judge_fingerprint?: unknown
    judge?: { fingerprint_parts?: Record<string, string> }
  }
  const evaluation = step ? result.steps[step]!.output as Evaluation | null : undefined
  const verdict = result.verdict ?? (typeof evaluation?.passed === 'boolean' ? (evaluation.passed ? 'pass' : 'fail') : undefined)
  if (!verdict) {
    const why = options.scoreStep ? `and its score step "${options.scoreStep}" did not succeed` : 'and no evaluator step succeeded'
    return { kind: 'result', result: { ...base, error: `the run gave no verdict: no output step set one, ${why}` } }
  }
  const output = outputOf(workflow, result, evaluation)
  const checks = checksOf(evaluation as Record<string, unknown> | null | undefined)
  const reason = reasonOf(evaluation as { feedback?: unknown } | null | undefined)
  const scored: CaseResult = {
    ...base, status: 'succeeded', verdict, error: null,
    ...(output === undefined ? {} : { output }), ...(reason === undefined ? {} : { reason }), ...(checks ? { checks } : {}),
  }
  if (typeof evaluation?.overall_score === 'number') scored.score = evaluation.overall_score
  if (typeof evaluation?.confidence === 'number') scored.confidence = evaluation.confidence
  if (evaluation?.panel && Array.isArray(evaluation.panel.judges)) {
    const { judges, agreement, verdict_rule: rule } = evaluation.panel
    scored.panel = { judges: judges.map(j => ({ model: j.model, passed: j.passed, overall_score: j.overall_score })), agreement, ...(typeof rule === 'string' ? { verdict_rule: rule } : {}) }
  }
  if (typeof evaluation?.judge_fingerprint === 'string') {
    scored.judge_fingerprint = evaluation.judge_fingerprint
    if (evaluation.judge?.fingerprint_parts) scored.judge_fingerprint_parts = evaluation.judge.fingerprint_parts
  }
  if (evaluation?.awaiting_comparison) scored.awaiting_comparison = evaluation.awaiting_comparison
  const warnings = stepWarnings(result).map(w => w.message)
  if (warnings.length) scored.warnings = warnings
  return { kind: 'result', result: scored }
}

function firstStepError(result: RunResult): SerializedError | undefined {
  return Object.values(result.steps).find(step => step.error)?.error ?? undefined
}

function rateLimit(error: SerializedError | undefined): { retryAfterMs?: number } | null {
  if (error?.code !== 'PROVIDER_ERROR') return null
  const details = error.details as { status?: number, retry_after_ms?: number } | undefined
  return details?.status === 429 ? { retryAfterMs: details.retry_after_ms } : null
}
