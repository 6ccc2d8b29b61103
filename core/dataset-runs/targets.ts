import { JudgeflowError, validatedWorkflow, type Workflow } from '../../engine'
import { withGrader, type CostEstimate, type DatasetCase, type DatasetReport } from '../../engine/datasets'
import { estimateFromLastRun, estimateFromPrompts } from '../../engine/datasets/estimate'
import { pinnedTo, type RecordedOutputs } from '../../engine/datasets/recorded-outputs'
import { EVALUATION_INPUT_ALIASES, EVALUATION_INPUT_FIELDS } from '../../engine/schema/evaluator'
import type { DatasetRunRequest } from '../dataset-run-request'
import { findTargetWorkflow } from '../rounds'
import type { DatasetRunsDeps, ResolvedTarget, StoredTarget } from './types'

/** How many of a dataset's newest finished runs an estimate looks at for one on the same target. */
const ESTIMATE_RUNS_LOOKED_AT = 20

/**
 * The workflow that judges a case with an evaluator alone: the input, then the evaluator with the
 * case's fields that it reads (`content`, `context`, `reference`, `candidates`, …) passed on.
 */
export function evaluatorWorkflow(config: Record<string, unknown>, fields: readonly string[]): Record<string, unknown> {
  const passed: Record<string, string> = {}
  for (const field of fields) {
    const as = (EVALUATION_INPUT_ALIASES as Record<string, string>)[field] ?? field
    if (as === field || !fields.includes(as)) passed[as] = `{{input.${field}}}`
  }
  return {
    name: 'Evaluator alone',
    nodes: [{ id: 'input', type: 'input' }, { id: 'evaluator', type: 'evaluator', config: { ...config, ...passed } }],
    edges: [{ from: 'input', to: 'evaluator' }],
  }
}

/** The target as a dataset run keeps it: the saved workflow's version now current, or the evaluator with the case fields it reads. */
export async function storedTargetOf(deps: Pick<DatasetRunsDeps, 'store'>, target: DatasetRunRequest['target'], cases: readonly DatasetCase[]): Promise<StoredTarget> {
  if ('evaluator' in target) {
    const present = new Set(cases.flatMap(c => Object.keys(c.input)))
    return { evaluator: target.evaluator, fields: EVALUATION_INPUT_FIELDS.filter(f => present.has(f)) }
  }
  const workflow = await findTargetWorkflow(deps.store, target)
  return { workflow_id: workflow.id, workflow_version: workflow.version }
}

/**
 * The target's workflow; with recorded outputs, the step they stand in for pinned (each case's run
 * pins it to the case's own). Its models are checked against the app's providers (the library caller's own included).
 */
export async function resolveTarget(
  deps: Pick<DatasetRunsDeps, 'store' | 'registry' | 'providers'>, target: StoredTarget, grader?: string, recorded?: RecordedOutputs,
): Promise<ResolvedTarget> {
  const graded = (definition: Record<string, unknown>) => (grader ? withGrader(definition, grader) : definition)
  const judged = (definition: Record<string, unknown>) => (recorded?.step ? pinnedTo(graded(definition), recorded.step, '') : graded(definition))
  const validation = { providers: deps.providers?.providerIds?.() }
  if ('evaluator' in target) {
    const definition = judged(evaluatorWorkflow(target.evaluator, target.fields))
    return { definition, workflow: validatedWorkflow(definition, deps.registry, validation), workflowId: null, workflowVersion: null }
  }
  const stored = await deps.store.workflows.get(target.workflow_id, target.workflow_version)
  if (!stored) throw new JudgeflowError('INVALID_INPUT', `target.workflow_id: workflow "${target.workflow_id}" version ${target.workflow_version} no longer exists`)
  const definition = judged(stored.definition)
  const workflow = validatedWorkflow(definition, deps.registry, validation)
  return { definition, workflow, workflowId: stored.id, workflowVersion: stored.version }
}

/** From the newest finished run of the dataset on the same target (of its 20 newest) whose cost is known, else from the prompts. */
export async function estimateOf(
  deps: Pick<DatasetRunsDeps, 'store' | 'defaultJudge'>, datasetId: string, target: StoredTarget, workflow: Workflow, cases: readonly DatasetCase[], repeat: number,
): Promise<CostEstimate> {
  const { store } = deps
  // The same target: the same evaluator config, or a workflow with the same steps and edges (`judgeflow test` saves its file anew each time).
  const definitionOf = async (t: StoredTarget) => {
    if (!('workflow_id' in t)) return JSON.stringify(t)
    const stored = await store.workflows.get(t.workflow_id, t.workflow_version)
    return stored ? JSON.stringify({ nodes: stored.definition.nodes, edges: stored.definition.edges }) : null
  }
  const wanted = await definitionOf(target)
  // The newest finished runs only: an estimate is asked as a form changes.
  const finished = (await store.datasets.runs(datasetId)).filter(r => r.status === 'finished').slice(0, ESTIMATE_RUNS_LOOKED_AT)
  for (const run of finished) {
    if (await definitionOf(run.target as unknown as StoredTarget) !== wanted) continue
    const report = (await store.datasets.getRun(run.id))?.report as unknown as DatasetReport | null
    if (typeof report?.cost_usd === 'number' && report.results.length) {
      return estimateFromLastRun({ id: run.id, cost_usd: report.cost_usd, case_runs: report.results.length }, cases.length * repeat)
    }
    break
  }
  return estimateFromPrompts(workflow, cases, repeat, deps.defaultJudge?.() ?? 'local:heuristic')
}
