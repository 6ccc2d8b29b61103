import type { DatasetRunRow, RunRow } from './rows'
import { JudgeflowError, missingKeyWarnings } from '../engine'
import {
  checkBaselineReport, comparisonRun, OutcomeCounts, selectionsOf,
  type CaseResult, type ComparisonGroup, type ComparisonOutcome, type CostEstimate, type DatasetCase, type DatasetReport, type ReportCalibration,
} from '../engine/datasets'
import { checkRequiredInputs } from '../engine/datasets/required-inputs'
import { DATASET_OUTPUT_COLUMN, generatingStep, holdsRecordedOutputs, inputWithOutput, type RecordedOutputs } from '../engine/datasets/recorded-outputs'
import { calibrationOf, calibrationProblem, workflowJudgeFingerprint } from './calibration'
import { datasetRunRequestSchema, selectedCases, type DatasetRunRequest, type StoredOptions } from './dataset-run-request'
import { DatasetRunExecution } from './dataset-runs/execution'
import { progressOfResults } from './dataset-runs/run-results'
import { estimateOf, resolveTarget, storedTargetOf } from './dataset-runs/targets'
import { STOPPING, type DatasetRunProgress, type DatasetRunsDeps, type ResolvedTarget } from './dataset-runs/types'
import { reportWriteFailure } from './runs/run-writer'

/** Finished dataset runs whose report is kept in memory once read (the latest asked for): a 10,000-case report is some megabytes. */
const KEPT_REPORTS = 4

export { datasetRunRequestSchema, DEFAULT_GATES, MAX_CASE_DELAY_MS, type DatasetRunRequest } from './dataset-run-request'
export { evaluatorWorkflow } from './dataset-runs/targets'
export { runResultOf, spendingOf } from './dataset-runs/run-results'
export type { DatasetRunProgress, DatasetRunsDeps } from './dataset-runs/types'

/** A dataset run as shown: the row without its report, the report (once it ended), and its progress. */
export interface DatasetRunDetail {
  row: Omit<DatasetRunRow, 'report'>
  report: DatasetReport | null
  progress: DatasetRunProgress
}

/**
 * Dataset runs: a saved workflow, or an evaluator config alone, run over every case of a dataset
 * version, `repeat` times, through the run service (each case's run is a normal run). Durable:
 * a case's row is written with its run's id before the run starts and with its result when the
 * run ends, so after a restart finished cases are kept, a run under way is followed to its end,
 * and nothing finished runs twice. Under rate limits the run slows down (see AdaptivePacer).
 */
export class DatasetRuns {
  private readonly going = new Map<string, { controller: AbortController, progress: DatasetRunProgress, counts: OutcomeCounts, done: Promise<void> }>()
  private readonly listeners = new Map<string, Set<(progress: DatasetRunProgress) => void>>()
  private readonly reports = new Map<string, { finishedAt: number | null, report: DatasetReport, progress: DatasetRunProgress }>()

  constructor(private readonly deps: DatasetRunsDeps) {}

  /** Checks the request (a user error naming the field otherwise), records the dataset run and starts it. */
  async start(raw: DatasetRunRequest): Promise<DatasetRunRow> {
    const { request, dataset, cases, target, resolved, recorded } = await this.checked(raw)
    const { store } = this.deps
    // What every case's run would be refused for is refused once, before any case runs.
    checkRequiredInputs(resolved.workflow, cases)
    const missingKey = this.deps.providers && missingKeyWarnings(resolved.workflow, { registry: this.deps.registry, providers: this.deps.providers })[0]
    if (missingKey) throw new JudgeflowError('MISSING_API_KEY', missingKey.message)
    if (request.score_step) {
      const node = resolved.workflow.nodes.find(n => n.id === request.score_step)
      if (node?.type !== 'evaluator') throw new JudgeflowError('INVALID_INPUT', `score_step: the workflow has no evaluator step "${request.score_step}"`)
    }
    const calibration = await this.requiredCalibration(request, resolved)
    if (request.baseline_run_id) {
      const baseline = await store.datasets.getRun(request.baseline_run_id)
      if (!baseline || baseline.datasetId !== dataset.id) throw new JudgeflowError('INVALID_INPUT', `baseline_run_id: "${request.baseline_run_id}" is not a run of dataset "${dataset.name}"`)
    }
    // Only what the report reads of the baseline is kept.
    const baseline = request.baseline_report
      ? checkBaselineReport(request.baseline_report, { name: dataset.name, caseIds: cases.map(c => c.id) }, 'baseline_report')
      : undefined
    const { dataset: _d, version: _v, target: _t, baseline_report: _b, outputs_from: _o, output_step: _s, ...rest } = request
    const estimate = await estimateOf(this.deps, dataset.id, target, resolved.workflow, cases, request.repeat)
    const budget = request.max_cost_usd
    // A budget is a promise: a run estimated past it does not start unless told to run until it is spent.
    if (budget !== undefined && estimate.estimate_usd !== null && estimate.estimate_usd > budget && !request.force) {
      throw new JudgeflowError('INVALID_INPUT', `max_cost_usd: the run is estimated at $${estimate.estimate_usd} for ${estimate.case_runs} case run${estimate.case_runs === 1 ? '' : 's'}, over the budget of $${budget}; raise the budget, run fewer cases, or set force (--force from the command line) to run only the case runs it pays for`, {
        details: { estimate },
      })
    }
    const options: StoredOptions = { ...rest, baseline, estimate, ...(recorded ? { recorded } : {}), ...(calibration ? { calibration } : {}) }
    const row = await store.datasets.createRun({
      datasetId: dataset.id, datasetVersion: dataset.version, target: target as Record<string, unknown>, options: options as unknown as Record<string, unknown>,
    })
    this.launch(row)
    return row
  }

  /**
   * A gate that rests on a judge nobody has checked against people is refused before any case runs;
   * the calibration found is kept for the report, where its interval's lower bound may be a gate.
   */
  private async requiredCalibration(
    request: { require_calibration?: { dataset: string, min_kappa: number, min_kappa_lower?: number }, score_step?: string }, resolved: ResolvedTarget,
  ): Promise<ReportCalibration | undefined> {
    if (!request.require_calibration) return undefined
    const { dataset: on, min_kappa: minKappa, min_kappa_lower: minKappaLower } = request.require_calibration
    const fingerprint = await workflowJudgeFingerprint(resolved.workflow, {
      scoreStep: request.score_step, defaultJudge: this.deps.defaultJudge?.() ?? 'local:heuristic', configDir: this.deps.configDir, metrics: this.deps.metrics,
    })
    const found = await calibrationOf(this.deps.store, fingerprint, on)
    const problem = calibrationProblem(found, minKappa)
    if (problem) throw new JudgeflowError('INVALID_INPUT', `require_calibration: ${problem}`, { details: { fingerprint: fingerprint.fingerprint } })
    return {
      ...(found.queue
        ? { queue: { id: found.queue.id, name: found.queue.name, items_hash: found.queue.items_hash } }
        : { dataset: { name: found.dataset!.name, version: found.dataset!.version }, dataset_run_id: found.dataset_run_id! }),
      kappa: found.kappa ?? null, kappa_ci: found.kappa_ci ?? null, labelled: found.labelled ?? 0,
      min_kappa: minKappa, ...(minKappaLower === undefined ? {} : { min_kappa_lower: minKappaLower }),
    }
  }

  /** What a run of the request would cost, said before it starts (estimate.ts); the request is checked as `start` checks it. */
  async estimate(raw: DatasetRunRequest): Promise<CostEstimate> {
    const { request, dataset, cases, target, resolved } = await this.checked(raw)
    return estimateOf(this.deps, dataset.id, target, resolved.workflow, cases, request.repeat)
  }

  /**
   * The request checked (a user error naming the field otherwise): its dataset version, cases and
   * target, the workflow resolved now, so one that cannot run is refused before any case starts.
   */
  private async checked(raw: DatasetRunRequest) {
    const parsed = datasetRunRequestSchema.safeParse(raw)
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!
      throw new JudgeflowError('INVALID_INPUT', `${issue.path.join('.') || 'the request'}: ${issue.message}`)
    }
    const request = parsed.data
    const { store } = this.deps
    const found = (await store.datasets.get(request.dataset)) ?? await this.byName(request.dataset)
    if (!found) throw new JudgeflowError('NOT_FOUND', `dataset "${request.dataset}" does not exist`)
    const dataset = request.version ? await store.datasets.get(found.id, request.version) : found
    if (!dataset) throw new JudgeflowError('INVALID_INPUT', `version: dataset "${found.name}" has no version ${request.version} (its current is ${found.currentVersion})`)
    const selected = selectedCases(dataset.cases as DatasetCase[], request)
    // A large dataset's read holds the thread a while (50,000 cases: tens of milliseconds): other
    // requests and timers (a lease's heartbeat) go first, then the workflow is checked and the estimate made.
    await new Promise<void>(resolve => setTimeout(resolve, 0))
    // Cases holding outputs are judged on them (recorded-outputs.ts); an evaluator alone judges each as its content.
    const recordedFrom = holdsRecordedOutputs(selected) ? request.outputs_from ?? DATASET_OUTPUT_COLUMN : undefined
    if (!recordedFrom && request.outputs_from) throw new JudgeflowError('INVALID_INPUT', 'outputs_from: the cases hold no recorded outputs')
    if (!recordedFrom && request.output_step) throw new JudgeflowError('INVALID_INPUT', 'output_step: names the step recorded outputs stand in for, and the cases hold none')
    const alone = 'evaluator' in request.target
    if (alone && request.output_step) throw new JudgeflowError('INVALID_INPUT', 'output_step: an evaluator config judged alone has no steps; its recorded output is the content judged')
    const cases = recordedFrom && alone ? selected.map(c => ({ ...c, input: inputWithOutput(c) })) : selected
    const target = await storedTargetOf(this.deps, request.target, cases)
    let resolved = await resolveTarget(this.deps, target, request.grader)
    let recorded: RecordedOutputs | undefined
    if (recordedFrom) {
      recorded = { from: recordedFrom, step: alone ? null : generatingStep(resolved.workflow, this.deps.registry, request.output_step) }
      if (recorded.step) resolved = await resolveTarget(this.deps, target, request.grader, recorded)
    }
    return { request, dataset, cases, target, resolved, recorded }
  }

  /** Picks up the dataset runs a previous process left going; how many. */
  async resumeOpen(): Promise<number> {
    const open = await this.deps.store.datasets.openRuns()
    for (const row of open) if (!this.going.has(row.id)) this.launch(row)
    return open.length
  }

  /** Stops a dataset run going on here: no case starts, those in flight are cancelled; false when it is not going on here. */
  cancel(id: string): boolean {
    const going = this.going.get(id)
    if (!going) return false
    going.controller.abort(new JudgeflowError('CANCELLED', 'the dataset run was cancelled'))
    return true
  }

  /** The progress of a dataset run going on here, or null. */
  progress(id: string): DatasetRunProgress | null {
    const going = this.going.get(id)
    return going ? { ...going.progress } : null
  }

  /**
   * The progress of any dataset run: live when it goes on here, else counted from its stored cases
   * (those that ended, run or not; the total is then those alone: `detail` knows the run's own).
   */
  async progressOf(row: Pick<DatasetRunRow, 'id' | 'status'>): Promise<DatasetRunProgress> {
    const live = this.progress(row.id)
    if (live) return live
    const ended = (await this.deps.store.datasets.runCases(row.id)).filter(c => c.status !== 'running' && c.result)
    return progressOfResults(row.id, row.status, ended.map(c => c.result as unknown as CaseResult))
  }

  /**
   * A dataset run with its report and progress; null when there is none. A run that has ended never
   * changes, so its report (and the progress it gives) is read once and kept; the row, read without
   * the report at each call, says whether it is still there and the same.
   */
  async detail(id: string): Promise<DatasetRunDetail | null> {
    const row = await this.deps.store.datasets.getRunSummary(id)
    const kept = this.reports.get(id)
    this.reports.delete(id)
    if (!row) return null
    if (kept && row.status !== 'running' && kept.finishedAt === row.finishedAt) {
      this.reports.set(id, kept)
      return { row, report: kept.report, progress: { ...kept.progress } }
    }
    const full = row.status === 'running' ? null : await this.deps.store.datasets.getRun(id)
    const report = (full?.report ?? null) as DatasetReport | null
    if (!full || !report) return { row: full ?? row, report: null, progress: await this.progressOf(full ?? row) }
    // From the stored case rows, not the report: its results leave out the case runs that did not run.
    const progress = await this.progressOf(full)
    progress.total = Math.max(progress.total, report.cases * (full.options as unknown as StoredOptions).repeat)
    this.reports.set(id, { finishedAt: full.finishedAt, report, progress })
    if (this.reports.size > KEPT_REPORTS) this.reports.delete(this.reports.keys().next().value!)
    return { row: full, report, progress: { ...progress } }
  }

  /** Hears the dataset run's progress at each finished case, and its end; call the result to stop. */
  subscribe(id: string, listener: (progress: DatasetRunProgress) => void): () => void {
    let set = this.listeners.get(id)
    if (!set) this.listeners.set(id, set = new Set())
    set.add(listener)
    return () => {
      set.delete(listener)
      if (!set.size) this.listeners.delete(id)
    }
  }

  /** Resolves once the dataset run going on here has ended (at once when it is not going on). */
  async whenDone(id: string): Promise<void> {
    await this.going.get(id)?.done
  }

  /** Stops every dataset run going on here (at shutdown); they resume at the next start. */
  async close(): Promise<void> {
    for (const going of this.going.values()) going.controller.abort(new JudgeflowError('CANCELLED', STOPPING))
    await Promise.allSettled([...this.going.values()].map(g => g.done))
  }

  private async byName(name: string) {
    const row = await this.deps.store.datasets.findByName(name)
    return row ? this.deps.store.datasets.get(row.id) : null
  }

  /**
   * Waits for a run's end. The dataset run's abort cancels it, unless the process is stopping: the
   * run then resumes with the dataset run at the next start.
   */
  private async followRun(runId: string, signal: AbortSignal): Promise<RunRow> {
    const { runs } = this.deps
    const stop = () => {
      if ((signal.reason as Error | undefined)?.message !== STOPPING) void runs.cancelAnywhere(runId).catch(reportWriteFailure)
    }
    signal.addEventListener('abort', stop, { once: true })
    // Aborted while the run was starting: the listener above came too late to hear it.
    if (signal.aborted) stop()
    try {
      return await runs.whenEnded(runId)
    }
    finally {
      signal.removeEventListener('abort', stop)
    }
  }

  /** One comparison of a test's outputs, run as a run of its own: the grades its evaluator gave, or why none. */
  private async compare(group: ComparisonGroup, options: Record<string, unknown>, signal: AbortSignal): Promise<ComparisonOutcome> {
    const { runs, store } = this.deps
    const { definition, input } = comparisonRun(group)
    if (signal.aborted) throw signal.reason
    const run = await runs.start({ definition, input, options })
    const ended = await this.followRun(run.id, signal)
    const step = (await store.runs.steps(run.id)).filter(s => s.nodeId === 'compare').at(-1)
    if (ended.status !== 'succeeded' || step?.status !== 'succeeded') {
      const error = (step?.error ?? ended.error) as { message?: string } | null
      return { run_id: run.id, error: `the comparison run ${ended.status}: ${error?.message ?? 'no reason given'}` }
    }
    const selections = selectionsOf(step.output, group.members.length)
    return typeof selections === 'string' ? { run_id: run.id, error: selections } : { run_id: run.id, selections }
  }

  private launch(row: DatasetRunRow): void {
    const controller = new AbortController()
    const progress: DatasetRunProgress = { id: row.id, status: 'running', total: 0, done: 0, not_run: 0, passed: 0, failed: 0, errored: 0 }
    const counts = new OutcomeCounts()
    const hooks = {
      followRun: (runId: string, signal: AbortSignal) => this.followRun(runId, signal),
      compare: (group: ComparisonGroup, options: Record<string, unknown>, signal: AbortSignal) => this.compare(group, options, signal),
      tell: (p: DatasetRunProgress) => this.tell(p),
    }
    const done = new DatasetRunExecution(this.deps, hooks, row, controller.signal, progress, counts).run().catch(async (error: unknown) => {
      progress.status = 'failed'
      await this.deps.store.datasets.updateRun(row.id, { status: 'failed', error: { message: (error as Error).message }, finishedAt: Date.now() })
    }).finally(() => {
      this.going.delete(row.id)
      this.tell(progress)
    })
    this.going.set(row.id, { controller, progress, counts, done })
  }

  private tell(progress: DatasetRunProgress): void {
    for (const listener of [...this.listeners.get(progress.id) ?? []]) listener({ ...progress })
  }
}
