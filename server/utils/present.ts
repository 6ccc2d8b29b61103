import type { RunRow, RunSummaryRow, StepRunRow, WorkflowWithDefinition } from '../../core'
import { validateWorkflow, type StepRegistry } from '../../engine'

export function presentWorkflow(workflow: WorkflowWithDefinition, registry: StepRegistry) {
  return {
    id: workflow.id,
    name: workflow.name,
    description: workflow.description,
    version: workflow.version,
    current_version: workflow.currentVersion,
    created_at: workflow.createdAt,
    updated_at: workflow.updatedAt,
    definition: workflow.definition,
    problems: validateWorkflow(workflow.definition, registry).problems,
  }
}

function presentStep(row: StepRunRow) {
  return {
    attempt: row.attempt, status: row.status, input: row.input, output: row.output, branch: row.branch, error: row.error,
    reason: row.reason, rerun: row.rerun, usage: row.usage, cached: row.cached, pinned: row.pinned,
    started_at: row.startedAt, finished_at: row.finishedAt, duration_ms: row.durationMs,
  }
}

/** A run as listed: its state, without input, output or steps (read the run for those). */
export function presentRunSummary(run: RunSummaryRow) {
  return {
    id: run.id, workflow_id: run.workflowId, workflow_version: run.workflowVersion,
    status: run.status, verdict: run.verdict, error: run.error, options: run.options,
    created_at: run.createdAt, started_at: run.startedAt, finished_at: run.finishedAt, duration_ms: run.durationMs,
  }
}

/** A run with every step: the latest attempt's fields at the top, each attempt in `history`. */
export function presentRun(run: Omit<RunRow, 'definition'> & { definition?: RunRow['definition'] }, steps: StepRunRow[] | null) {
  const base = { ...presentRunSummary(run), input: run.input, output: run.output }
  if (!steps) return base
  const byNode: Record<string, ReturnType<typeof presentStep> & { attempts: number, history: ReturnType<typeof presentStep>[] }> = {}
  for (const row of steps) {
    const step = presentStep(row)
    const entry = byNode[row.nodeId]
    const history = entry ? [...entry.history, step].sort((a, b) => a.attempt - b.attempt) : [step]
    const latest = history.at(-1)!
    byNode[row.nodeId] = { ...latest, attempts: latest.attempt, history }
  }
  return { ...base, definition: run.definition, steps: byNode }
}
