import type { RunResult, StepSummary } from '../../engine'
import { OutcomeCounts, type CaseRun, type CaseTokens } from '../../engine/datasets'
import type { RunRow, StepRunRow } from '../rows'
import type { DatasetRunProgress } from './types'

/** The counts a dataset run's progress shows. */
export function countsOf(counts: OutcomeCounts): Pick<DatasetRunProgress, 'done' | 'not_run' | 'passed' | 'failed' | 'errored'> {
  return { done: counts.runs, not_run: counts.notRun, passed: counts.passed, failed: counts.failed, errored: counts.errored }
}

/** The progress a dataset run's stored results give: as many case runs as ended, run or not. */
export function progressOfResults(id: string, status: string, results: readonly CaseRun[]): DatasetRunProgress {
  const counts = new OutcomeCounts()
  for (const result of results) counts.add(result)
  return { id, status, total: counts.runs + counts.notRun, ...countsOf(counts) }
}

/** The run's result as the executor summarised it, from its stored row and steps (the last attempt of each). */
export function runResultOf(run: RunRow, steps: readonly StepRunRow[]): RunResult {
  const summaries: Record<string, StepSummary> = {}
  for (const step of [...steps].sort((a, b) => a.attempt - b.attempt)) {
    summaries[step.nodeId] = { status: step.status as StepSummary['status'], attempts: step.attempt, output: step.output ?? null, error: (step.error ?? null) as StepSummary['error'] }
  }
  return {
    status: run.status as RunResult['status'], verdict: (run.verdict ?? null) as RunResult['verdict'], output: run.output ?? null,
    error: (run.error ?? null) as RunResult['error'], steps: summaries, duration_ms: run.durationMs ?? 0,
  }
}

/**
 * Tokens and cost over every attempt of every step: the evaluator steps' as the judge's, the
 * others' (LLM steps, and the product's as an http step's response reports them) as generation.
 * The cost is each step's `cost_usd`; null when a step that used tokens has none (a model without
 * a known price). An http step's tokens cost the product, not judgeflow: they are not priced.
 */
export function spendingOf(
  steps: readonly StepRunRow[], workflow: { nodes: ReadonlyArray<{ id: string, type: string }> },
): { tokens: CaseTokens, cost_usd: number | null } {
  const types = new Map(workflow.nodes.map(n => [n.id, n.type]))
  const generation = { input: 0, output: 0 }
  const judge = { input: 0, output: 0 }
  let cost: number | null = 0
  for (const step of steps) {
    const usage = step.usage
    if (!usage || (!usage.input_tokens && !usage.output_tokens)) continue
    const into = types.get(step.nodeId) === 'evaluator' ? judge : generation
    into.input += usage.input_tokens ?? 0
    into.output += usage.output_tokens ?? 0
    // The product's tokens (an http step's response reports them) are its own spend, not priced here.
    if (types.get(step.nodeId) === 'http') continue
    const stepCost = (step.output as { cost_usd?: unknown } | null)?.cost_usd
    cost = cost === null || typeof stepCost !== 'number' ? null : cost + stepCost
  }
  return {
    tokens: { input: generation.input + judge.input, output: generation.output + judge.output, generation, judge },
    cost_usd: cost === null ? null : Math.round(cost * 1e8) / 1e8,
  }
}
