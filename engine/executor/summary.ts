import type { SerializedError } from '../errors'
import type { Workflow, Verdict } from '../schema/workflow'
import type { RunResult, StepRecord, StepSummary } from './types'

/** Where a node of a run stands: its status, times reached and its last record. */
export interface NodeProgress {
  status: 'pending' | 'ready' | 'running' | 'succeeded' | 'failed' | 'skipped' | 'cancelled'
  /** Times reached (run or skipped). */
  attempt: number
  last?: StepRecord
}

/**
 * The run's verdict comes from the output nodes that ran: any `fail` wins over `pass`.
 * Its output is the value of the one output node that ran, or a map by node id when several did.
 */
export function summarizeRun(
  workflow: Workflow,
  states: ReadonlyMap<string, NodeProgress>,
  end: { status: RunResult['status'], error: SerializedError | null, durationMs: number },
): RunResult {
  const steps: Record<string, StepSummary> = {}
  const outputs: Array<[string, { verdict?: unknown, value?: unknown }]> = []
  for (const node of workflow.nodes) {
    const state = states.get(node.id)
    if (!state || steps[node.id]) continue
    const status = state.status === 'ready' || state.status === 'running' ? 'pending' : state.status
    const last = state.last
    steps[node.id] = {
      status,
      attempts: state.attempt,
      output: last?.output ?? null,
      error: last?.error ?? null,
      ...(last?.branch === undefined ? {} : { branch: last.branch }),
      ...(last?.duration_ms === undefined ? {} : { duration_ms: last.duration_ms }),
    }
    if (node.type === 'output' && status === 'succeeded') outputs.push([node.id, (last?.output ?? {}) as { verdict?: unknown, value?: unknown }])
  }
  let verdict: Verdict = null
  for (const [, out] of outputs) {
    if (out.verdict === 'fail') verdict = 'fail'
    else if (out.verdict === 'pass' && verdict === null) verdict = 'pass'
  }
  const output = outputs.length === 0
    ? null
    : outputs.length === 1 ? outputs[0]![1].value ?? null : Object.fromEntries(outputs.map(([id, out]) => [id, out.value ?? null]))
  return { status: end.status, verdict, output, error: end.error, steps, duration_ms: Math.round(end.durationMs * 100) / 100 }
}
