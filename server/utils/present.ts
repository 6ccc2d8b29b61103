import type { RunEventRow, RunRow, RunSummaryRow, StepRunRow, WorkflowWithDefinition } from '~~/core'
import { boundEvent, isTruncated, missingKeyWarnings, runValueHref, stepValueHref, validateWorkflow, type Providers, type RunEvent, type StepRegistry, type StoredField } from '~~/engine'

type Checked = { problems: ReturnType<typeof validateWorkflow>['problems'], warnings: ReturnType<typeof missingKeyWarnings> }

/**
 * The problems and warnings of the workflow versions answered lately, by id, version and time of
 * the last save: a version's definition never changes, nor do this server's steps and keys, and
 * checking 200 steps took longer than the rest of opening them.
 */
const checkedVersions = new Map<string, Checked>()
const CHECKED_KEPT = 100

function checkedVersion(workflow: WorkflowWithDefinition, app: { registry: StepRegistry, providers: Providers }): Checked {
  const key = JSON.stringify([workflow.id, workflow.version, workflow.updatedAt])
  let checked = checkedVersions.get(key)
  if (!checked) {
    const { problems, workflow: valid } = validateWorkflow(workflow.definition, app.registry)
    checked = { problems, warnings: valid ? missingKeyWarnings(valid, app) : [] }
    if (checkedVersions.size >= CHECKED_KEPT) checkedVersions.delete(checkedVersions.keys().next().value!)
    checkedVersions.set(key, checked)
  }
  return checked
}

/** A workflow with its problems, and the keys its run would miss on this server (warnings: pinning or a key fixes them). */
export function presentWorkflow(workflow: WorkflowWithDefinition, app: { registry: StepRegistry, providers: Providers }) {
  const { problems, warnings } = checkedVersion(workflow, app)
  return {
    id: workflow.id,
    name: workflow.name,
    description: workflow.description,
    version: workflow.version,
    current_version: workflow.currentVersion,
    created_at: workflow.createdAt,
    updated_at: workflow.updatedAt,
    definition: workflow.definition,
    problems,
    warnings,
  }
}

/** A stored value as an answer carries it: a marker of one too large to carry gets the address of the whole value. */
function linked(value: unknown, href: string): unknown {
  return isTruncated(value) ? { ...value, href } : value
}

/**
 * A run event as it is sent: its values bounded as stored events are (rows stored before the
 * bound included), each marker with the address of the whole value.
 */
export function presentEvent(row: RunEventRow) {
  const event = boundEvent({ type: row.type, at: row.at, ...row.data } as RunEvent)
  const at = (nodeId: string, attempt: number, field: StoredField) => stepValueHref(row.runId, nodeId, attempt, field)
  switch (event.type) {
    case 'step.started':
      return { id: row.id, ...event, input: linked(event.input, at(event.node_id, event.attempt, 'input')) }
    case 'step.succeeded':
    case 'step.failed':
    case 'step.skipped':
    case 'step.cancelled': {
      const { node_id: nodeId, attempt } = event.step
      return { id: row.id, ...event, step: { ...event.step, input: linked(event.step.input, at(nodeId, attempt, 'input')), output: linked(event.step.output, at(nodeId, attempt, 'output')) } }
    }
    case 'run.finished': {
      const steps = Object.fromEntries(Object.entries(event.result.steps).map(([id, step]) => [id, { ...step, output: linked(step.output, at(id, step.attempts, 'output')) }]))
      return { id: row.id, ...event, result: { ...event.result, output: linked(event.result.output, runValueHref(row.runId, 'output')), steps } }
    }
    default:
      return { id: row.id, ...event }
  }
}

/** A run event as the event stream sends it: what the page's run view reads (app/composables/useRunStream.ts). */
export type PresentedRunEvent = ReturnType<typeof presentEvent>

/** One attempt of a step; `seq`: its place among all the run's attempts in the order they were first stored (started, or skipped). */
function presentStep(row: StepRunRow, seq: number) {
  const at = (field: StoredField) => stepValueHref(row.runId, row.nodeId, row.attempt, field)
  return {
    attempt: row.attempt, seq, status: row.status, input: linked(row.input, at('input')), output: linked(row.output, at('output')), branch: row.branch, error: row.error,
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

/**
 * A run with every step: the latest attempt's fields at the top, each attempt in `history`. A value
 * the store did not carry whole (see `store.runs.view`) is a marker with the address of the whole value.
 */
export function presentRun(run: Omit<RunRow, 'definition' | 'input' | 'output'> & { definition?: RunRow['definition'], input: unknown, output: unknown }, steps: StepRunRow[] | null) {
  const base = { ...presentRunSummary(run), input: linked(run.input, runValueHref(run.id, 'input')), output: linked(run.output, runValueHref(run.id, 'output')) }
  if (!steps) return base
  const byNode: Record<string, ReturnType<typeof presentStep> & { attempts: number, history: ReturnType<typeof presentStep>[] }> = {}
  // The store gives the rows in the order they were first written.
  for (const [seq, row] of steps.entries()) {
    const step = presentStep(row, seq)
    const entry = byNode[row.nodeId]
    const history = entry ? [...entry.history, step].sort((a, b) => a.attempt - b.attempt) : [step]
    const latest = history.at(-1)!
    byNode[row.nodeId] = { ...latest, attempts: latest.attempt, history }
  }
  return { ...base, definition: run.definition, steps: byNode }
}
