/**
 * Whether a judge is calibrated: a finished dataset run with labels, judged by a judge of the same
 * fingerprint, on the dataset's current version. Its κ against the labels (with its interval) is
 * the calibration. Otherwise the judge is `stale` — the newest labelled run was judged by a judge
 * that differs in the parts named, or the dataset has changed since — or `not_calibrated`.
 * A review queue calibrates too (core/review/calibration.ts): the judge against people's consensus
 * on the items it judged, read from the queue's labels as they are now.
 */
import { resolve } from 'node:path'
import { JudgeflowError, readEvaluatorConfigFile, resolveEvaluatorConfig, type Workflow } from '../engine'
import type { DatasetReport } from '../engine/datasets'
import { calibrationSource, kappaText, kappaUncertainty } from '../engine/datasets/kappa-interval'
import { fingerprintOf } from '../engine/evaluator'
import { changedParts, changedWords, type FingerprintPart, type JudgeFingerprint } from '../engine/evaluator/fingerprint'
import { DEFAULT_CONFIG_DIR } from '../engine/evaluator'
import { splitStepConfig } from '../engine/evaluation-types/fields'
import { buildGraph, topologicalOrder } from '../engine/graph/topology'
import type { MetricRegistry } from '../engine/evaluator'
import type { DatasetRow, DatasetRunRow } from './rows'
import type { Store } from './store'
import type { Calibration } from './calibration-result'
import { findQueue, queueCalibrationOf } from './review/calibration'

export type { Calibration } from './calibration-result'

/**
 * The judge's calibration on the dataset named (or with that id), else on the review queue with that
 * id or name: a dataset and a queue of one name, the dataset's calibration is the one.
 */
export async function calibrationOf(store: Store, fingerprint: JudgeFingerprint, dataset: string): Promise<Calibration> {
  const found = (await store.datasets.get(dataset)) ?? await store.datasets.findByName(dataset)
  if (found) return calibrationOn(store, fingerprint, found, await store.datasets.runs(found.id))
  const queue = await findQueue(store, dataset)
  if (queue) {
    const { at: _at, ...calibration } = await queueCalibrationOf(store, fingerprint, queue)
    return calibration
  }
  return { fingerprint: fingerprint.fingerprint, status: 'not_calibrated', message: `not calibrated: there is no dataset or review queue "${dataset}"` }
}

/** The judge's calibration on `found`, from the dataset runs given (newest first). */
async function calibrationOn(store: Store, fingerprint: JudgeFingerprint, found: DatasetRow, runs: readonly Omit<DatasetRunRow, 'report'>[]): Promise<Calibration> {
  const base = { fingerprint: fingerprint.fingerprint }
  let newestOther: { runId: string, version: number, report: DatasetReport } | null = null
  for (const run of runs) {
    if (run.status !== 'finished') continue
    const report = (await store.datasets.getRun(run.id))?.report as unknown as DatasetReport | null
    const agreement = report?.agreement
    if (!report || !agreement?.labelled || !agreement.judge_fingerprint) continue
    const about = {
      dataset: { id: found.id, name: found.name, version: run.datasetVersion, current_version: found.currentVersion },
      dataset_run_id: run.id, kappa: agreement.kappa, kappa_ci: agreement.kappa_ci, labelled: agreement.labelled,
    }
    if (agreement.judge_fingerprint === fingerprint.fingerprint) {
      const on = `on ${found.name} v${run.datasetVersion}`
      if (run.datasetVersion !== found.currentVersion) {
        return { ...base, ...about, status: 'stale', message: `stale: ${found.name} changed since (v${run.datasetVersion} → v${found.currentVersion}); calibrated ${kappaText(agreement.kappa, null)} ${on}` }
      }
      const uncertain = kappaUncertainty(agreement)
      const message = `calibrated: ${kappaText(agreement.kappa, agreement.kappa_ci)} ${on}${uncertain ? `, ${uncertain}` : ''}`
      return { ...base, ...about, status: 'calibrated', message, ...(uncertain ? { uncertain } : {}) }
    }
    newestOther ??= { runId: run.id, version: run.datasetVersion, report }
  }
  if (newestOther) {
    const parts = newestOther.report.agreement!.judge_fingerprint_parts as Record<FingerprintPart, string> | null | undefined
    const changed = parts ? changedParts(parts, fingerprint.parts) : []
    const what = changedWords(changed)
    return {
      ...base, status: 'stale', changed, dataset_run_id: newestOther.runId,
      dataset: { id: found.id, name: found.name, version: newestOther.version, current_version: found.currentVersion },
      message: `stale: ${what} changed since the last calibration on ${found.name} v${newestOther.version}`,
    }
  }
  return { ...base, status: 'not_calibrated', message: `not calibrated: no finished run of ${found.name} with labels has been judged by this judge` }
}

/** How many of a dataset's newest finished runs are looked at for a judge's calibration across every dataset. */
const RUNS_LOOKED_AT = 20

/**
 * The judge's calibration on any dataset or review queue, for the editor and the run inspector:
 * calibrated on a dataset (the newest such run; datasets first, as before queues existed), else on a
 * review queue (the one labelled last), else stale (the newest labelled run of any dataset, or the
 * queue labelled last, judged by another judge), else not calibrated. Looks at each dataset's
 * RUNS_LOOKED_AT newest finished runs.
 */
export async function anyCalibrationOf(store: Store, fingerprint: JudgeFingerprint): Promise<Calibration> {
  const newest = { stale: null as Calibration | null, at: -Infinity }
  const consider = (found: Calibration, at: number) => {
    if (found.status === 'stale' && at > newest.at) Object.assign(newest, { stale: found, at })
  }
  for (const dataset of await store.datasets.list()) {
    const runs = (await store.datasets.runs(dataset.id)).filter(r => r.status === 'finished').slice(0, RUNS_LOOKED_AT)
    if (!runs.length) continue
    const found = await calibrationOn(store, fingerprint, dataset, runs)
    if (found.status === 'calibrated') return found
    consider(found, Number(runs[0]!.createdAt) || 0)
  }
  let calibrated: (Calibration & { at: number }) | null = null
  for (const queue of await store.review.listQueues()) {
    const found = await queueCalibrationOf(store, fingerprint, queue)
    if (found.status === 'calibrated' && (!calibrated || found.at > calibrated.at)) calibrated = found
    consider(found, found.at)
  }
  const chosen: Calibration | null = calibrated ?? newest.stale
  if (chosen) {
    const { at: _at, ...calibration } = chosen as Calibration & { at?: number }
    return calibration
  }
  return { fingerprint: fingerprint.fingerprint, status: 'not_calibrated', message: 'not calibrated: no dataset run with labels has been judged by this judge' }
}

/** Whether a calibration meets a requirement: calibrated, with a κ of at least `minKappa`; else why not. */
export function calibrationProblem(calibration: Calibration, minKappa: number): string | null {
  if (calibration.status !== 'calibrated') return `the judge is ${calibration.message}`
  const on = `on ${calibrationSource(calibration)}`
  if (calibration.kappa === null || calibration.kappa === undefined) return `the judge's κ ${on} is not defined (one verdict for every case), so it cannot reach the ${minKappa} required`
  if (calibration.kappa < minKappa - 1e-9) return `the judge's ${kappaText(calibration.kappa, calibration.kappa_ci)} ${on} is below the ${minKappa} required`
  return null
}

/** The fingerprint of an evaluator step's judge, its config file read as the step reads it. */
export async function stepJudgeFingerprint(
  stepConfig: Record<string, unknown>, options: { defaultJudge: string, configDir?: string, metrics?: MetricRegistry },
): Promise<JudgeFingerprint> {
  const { configFile, evaluator } = splitStepConfig(stepConfig)
  const fromFile = configFile ? await readEvaluatorConfigFile(String(configFile), { within: resolve(options.configDir ?? DEFAULT_CONFIG_DIR) }) : {}
  return fingerprintOf(resolveEvaluatorConfig({ ...fromFile, ...evaluator }, options.defaultJudge), options.metrics)
}

/**
 * The fingerprint of the judge a workflow's verdicts rest on: the evaluator step `scoreStep`, else
 * the last evaluator step in the graph, with its config file read as the step reads it.
 */
export async function workflowJudgeFingerprint(
  workflow: Workflow, options: { scoreStep?: string, defaultJudge: string, configDir?: string, metrics?: MetricRegistry },
): Promise<JudgeFingerprint> {
  const evaluators = new Set(workflow.nodes.filter(n => n.type === 'evaluator').map(n => n.id))
  const id = options.scoreStep ?? topologicalOrder(buildGraph(workflow)).order.filter(n => evaluators.has(n)).at(-1)
  const node = workflow.nodes.find(n => n.id === id && n.type === 'evaluator')
  if (!node) throw new JudgeflowError('INVALID_INPUT', 'require_calibration: the workflow has no evaluator step whose judge could be calibrated')
  return stepJudgeFingerprint((node.config ?? {}) as Record<string, unknown>, options)
}
