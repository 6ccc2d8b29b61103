/**
 * The judge re-run over a queue's items after its rubric was edited (DESIGN.md, "Human review:
 * annotation queues"), with the same evaluation engine as the evaluator step. The judge is the one
 * asked for — an evaluator config, or a saved workflow's evaluator step in its current version — else
 * the one the items came from (their dataset run's evaluator or workflow, their run's workflow, their
 * online rule's evaluator), read as it is now. Each verdict is kept as a re-judgement tied to the
 * judge's fingerprint, beside the verdict the item was added with; the answer gives the judge's κ
 * against the consensus before (the verdicts the items were added with) and after.
 */
import { resolve } from 'node:path'
import { JudgeflowError } from '../../engine/errors'
import { DEFAULT_CONFIG_DIR, evaluate, prepareEvaluation, readEvaluatorConfigFile, type EvaluateDeps } from '../../engine/evaluator'
import { evaluationTypeSpec } from '../../engine/evaluation-types/specs'
import { splitStepConfig } from '../../engine/evaluation-types/fields'
import { buildGraph, topologicalOrder } from '../../engine/graph/topology'
import type { Workflow } from '../../engine'
import { round4 } from '../../engine/datasets/stats'
import type { ReviewItemRow, ReviewLabelRow, ReviewRejudgement } from '../review-rows'
import type { Store } from '../store'
import { comparable, comparableUnder, judgeAgainstConsensus, type Compared } from './calibration'
import { judgedInput } from './judged-input'

/** The judge to re-run: an evaluator step's config, or a saved workflow's evaluator step (the last one unless `step_id` names it). */
export type JudgeRef = { config: Record<string, unknown> } | { workflow_id: string, step_id?: string }

/** Items judged at a time: a judge that calls a model is asked this many times at once at most. */
const AT_ONCE = 4

/** The evaluator step config of a saved workflow's current version: the step named, else its last evaluator in the graph. */
async function workflowStep(store: Store, workflowId: string, stepId?: string): Promise<{ config: Record<string, unknown>, from: string }> {
  const workflow = await store.workflows.get(workflowId)
  if (!workflow) throw new JudgeflowError('INVALID_INPUT', `workflow_id: no workflow with id "${workflowId}"`)
  const definition = workflow.definition as unknown as Pick<Workflow, 'nodes' | 'edges'>
  const evaluators = new Set(definition.nodes.filter(n => n.type === 'evaluator').map(n => n.id))
  const id = stepId ?? topologicalOrder(buildGraph(definition)).order.filter(n => evaluators.has(n)).at(-1)
  const node = definition.nodes.find(n => n.id === id && n.type === 'evaluator')
  if (!node) throw new JudgeflowError('INVALID_INPUT', stepId ? `step_id: workflow ${workflow.name} has no evaluator step "${stepId}"` : `workflow_id: workflow ${workflow.name} has no evaluator step`)
  return { config: (node.config ?? {}) as Record<string, unknown>, from: `step ${node.id} of workflow ${workflow.name} v${workflow.version}` }
}

/** The judge the queue's first item came from, as it is now. */
async function sourceJudge(store: Store, items: readonly ReviewItemRow[]): Promise<JudgeRef | null> {
  const source = items[0]?.source
  if (!source) return null
  if (source.kind === 'dataset_run_case') {
    const run = await store.datasets.getRunSummary(source.dataset_run_id)
    const target = run?.target as { evaluator?: Record<string, unknown>, workflow_id?: string } | undefined
    if (target?.evaluator) return { config: target.evaluator }
    const step = run?.options.score_step
    return target?.workflow_id ? { workflow_id: target.workflow_id, ...(typeof step === 'string' ? { step_id: step } : {}) } : null
  }
  if (source.kind === 'run') {
    const run = await store.runs.get(source.run_id)
    return run?.workflowId ? { workflow_id: run.workflowId } : null
  }
  const rule = await store.online.getRule(source.rule_id)
  return rule ? rule.evaluator : null
}

/** The evaluator config to run (its config file read as the step reads it), and where it came from. */
export async function queueJudgeOf(store: Store, items: readonly ReviewItemRow[], given: JudgeRef | undefined, configDir?: string) {
  const ref = given ?? await sourceJudge(store, items)
  if (!ref) throw new JudgeflowError('INVALID_INPUT', 'config: the queue\'s items do not say which judge judged them; give config (an evaluator config) or workflow_id')
  const step = 'config' in ref ? { config: ref.config, from: given ? 'the evaluator config given' : 'the evaluator its items were judged by' } : await workflowStep(store, ref.workflow_id, ref.step_id)
  const { configFile, evaluator } = splitStepConfig(step.config)
  const fromFile = configFile ? await readEvaluatorConfigFile(String(configFile), { within: resolve(configDir ?? DEFAULT_CONFIG_DIR) }) : {}
  return { config: { ...fromFile, ...evaluator }, from: step.from }
}

/** The judge's κ against the consensus over the items compared, and how often its verdict is the consensus. */
function figures(compared: readonly Compared[], fingerprint: string | null) {
  const { kappa, kappa_ci, labelled, confusion } = judgeAgainstConsensus(compared)
  const alike = compared.filter(c => c.verdict === c.consensus).length
  return { fingerprint, kappa, kappa_ci, compared: labelled, accuracy: labelled ? round4(alike / labelled) : null, confusion }
}

/** Runs `work` over the items, AT_ONCE at a time, in their order. */
async function eachAtOnce<T, R>(list: readonly T[], work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(list.length)
  let next = 0
  const lane = async () => {
    for (let i = next++; i < list.length; i = next++) results[i] = await work(list[i]!)
  }
  await Promise.all(Array.from({ length: Math.min(AT_ONCE, list.length) }, lane))
  return results
}

/**
 * Re-runs the judge over every item of the queue and keeps each verdict as the item's re-judgement
 * under the judge's fingerprint; an item the judge could not judge is named with why. The κ before
 * is of the verdicts the items were added with; after, of the re-run's.
 */
export async function rejudgeQueue(
  store: Store, queueId: string, judge: { config: Record<string, unknown>, from: string }, deps: EvaluateDeps,
) {
  // The config is checked (each bad field named) and its keys, before any item is judged.
  const reads = evaluationTypeSpec(prepareEvaluation(judge.config, deps).config.evaluation_type)?.inputs ?? ['content']
  const items = await store.review.items(queueId)
  const errors: Array<{ item_id: string, position: number, error: string }> = []
  // The judge's fingerprint, as its results give it (the same for every item).
  const seen = { fingerprint: null as string | null }
  const verdicts = await eachAtOnce(items, async (item) => {
    try {
      const result = await evaluate(judge.config, judgedInput(item, reads), deps)
      seen.fingerprint = result.judge_fingerprint ?? null
      if (!result.judge_fingerprint) return null
      const rejudged: ReviewRejudgement = {
        verdict: result.passed ? 'pass' : 'fail', score: result.overall_score, reason: result.feedback || null,
        fingerprint: result.judge_fingerprint, fingerprint_parts: result.judge.fingerprint_parts ?? null, at: Date.now(),
      }
      await store.review.addRejudgement(item.id, rejudged)
      return { item, rejudged }
    }
    catch (error) {
      errors.push({ item_id: item.id, position: item.position, error: (error as Error).message })
      return null
    }
  })
  const judged = verdicts.filter(v => v !== null)
  const { fingerprint } = seen
  const labels: ReviewLabelRow[] = await store.review.labels(queueId)
  const before = comparable(items, labels)
  const beforePrints = new Set(before.map(c => c.item.judge?.fingerprint ?? null))
  const after = fingerprint ? comparableUnder(await store.review.items(queueId), labels, fingerprint) : []
  const changed = judged.filter(v => typeof v.item.judge?.verdict === 'string' && v.item.judge.verdict !== v.rejudged.verdict).length
  return {
    queue_id: queueId, judge: { from: judge.from, fingerprint }, items: items.length, judged: judged.length, changed,
    errors: errors.sort((a, b) => a.position - b.position),
    before: figures(before, beforePrints.size === 1 ? [...beforePrints][0]! : null),
    after: figures(after, fingerprint),
  }
}
