import { randomUUID } from 'node:crypto'
import { z } from 'zod'
import type { DatasetRunCaseRow, DatasetRunRow, RunRow, StepRunRow } from './rows'
import { JudgeflowError, missingKeyWarnings, validatedWorkflow, type Providers, type RunResult, type StepRegistry, type StepSummary, type Workflow } from '../engine'
import {
  buildDatasetReport, caseRunOutcome, checkBaselineReport, withGrader, comparisonRun, OutcomeCounts, runCases, selectionsOf, settleComparisons,
  type CaseResult, type ComparisonGroup, type ComparisonOutcome, type CaseRun, type CaseRunOutcome, type CaseTask,
  type CaseTokens, type CostEstimate, type DatasetCase, type DatasetReport, type ReportCalibration,
} from '../engine/datasets'
import { estimateFromLastRun, estimateFromPrompts } from '../engine/datasets/estimate'
import { checkRequiredInputs } from '../engine/datasets/required-inputs'
import { caseRunOf, DATASET_OUTPUT_COLUMN, generatingStep, holdsRecordedOutputs, inputWithOutput, pinnedTo, type RecordedOutputs } from '../engine/datasets/recorded-outputs'
import type { MetricRegistry } from '../engine/evaluator'
import { calibrationOf, calibrationProblem, workflowJudgeFingerprint } from './calibration'
import { datasetRunRequestSchema, selectedCases, type DatasetRunRequest, type StoredOptions } from './dataset-run-request'
import { EVALUATION_INPUT_ALIASES, EVALUATION_INPUT_FIELDS } from '../engine/schema/evaluator'
import { findTargetWorkflow } from './rounds'
import { reportWriteFailure } from './runs/run-writer'
import type { RunService } from './runs/run-service'
import type { Store } from './store'

/** Why a dataset run stops when its process stops: its case runs are left to resume, not cancelled. */
const STOPPING = 'the process is stopping'
/** Finished dataset runs whose report is kept in memory once read (the latest asked for): a 10,000-case report is some megabytes. */
const KEPT_REPORTS = 4

export { datasetRunRequestSchema, MAX_CASE_DELAY_MS, type DatasetRunRequest } from './dataset-run-request'

/** A dataset run as shown: the row without its report, the report (once it ended), and its progress. */
export interface DatasetRunDetail {
  row: Omit<DatasetRunRow, 'report'>
  report: DatasetReport | null
  progress: DatasetRunProgress
}

/**
 * A dataset run's progress as its followers hear it: `total` and `done` count case runs (a case
 * runs `repeat` times; a cancelled run is not done); `passed`, `failed` and `errored` count cases,
 * by the rule the report counts them by, so a run's last progress and its report agree.
 */
export interface DatasetRunProgress {
  id: string
  status: string
  total: number
  done: number
  /** Case runs that ended without running: not started once the budget was spent, or cancelled. */
  not_run: number
  passed: number
  failed: number
  errored: number
}

type StoredTarget = { workflow_id: string, workflow_version: number } | { evaluator: Record<string, unknown>, fields: string[] }

interface ResolvedTarget {
  definition: Record<string, unknown>
  workflow: Workflow
  workflowId: string | null
  workflowVersion: number | null
}

export interface DatasetRunsDeps {
  store: Store
  runs: RunService
  registry: StepRegistry
  /** The server's default judge, for the estimate and the fingerprint of a step that names none. */
  defaultJudge?: () => string
  /** Where evaluator steps read their config files, and the metrics they know: for the judge's fingerprint. */
  configDir?: string
  metrics?: MetricRegistry
  /** The app's providers: a key the workflow's models need and this process lacks refuses the start, not each case. */
  providers?: Providers
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
    // A gate that rests on a judge nobody has checked against people is refused before any case runs;
    // the calibration found is kept for the report, where its interval's lower bound may be a gate.
    let calibration: ReportCalibration | undefined
    if (request.require_calibration) {
      const { dataset: on, min_kappa: minKappa, min_kappa_lower: minKappaLower } = request.require_calibration
      const fingerprint = await workflowJudgeFingerprint(resolved.workflow, {
        scoreStep: request.score_step, defaultJudge: this.deps.defaultJudge?.() ?? 'local:heuristic', configDir: this.deps.configDir, metrics: this.deps.metrics,
      })
      const found = await calibrationOf(store, fingerprint, on)
      const problem = calibrationProblem(found, minKappa)
      if (problem) throw new JudgeflowError('INVALID_INPUT', `require_calibration: ${problem}`, { details: { fingerprint: fingerprint.fingerprint } })
      calibration = {
        dataset: { name: found.dataset!.name, version: found.dataset!.version }, dataset_run_id: found.dataset_run_id!,
        kappa: found.kappa ?? null, kappa_ci: found.kappa_ci ?? null, labelled: found.labelled ?? 0,
        min_kappa: minKappa, ...(minKappaLower === undefined ? {} : { min_kappa_lower: minKappaLower }),
      }
    }
    if (request.baseline_run_id) {
      const baseline = await store.datasets.getRun(request.baseline_run_id)
      if (!baseline || baseline.datasetId !== dataset.id) throw new JudgeflowError('INVALID_INPUT', `baseline_run_id: "${request.baseline_run_id}" is not a run of dataset "${dataset.name}"`)
    }
    // Only what the report reads of the baseline is kept.
    const baseline = request.baseline_report
      ? checkBaselineReport(request.baseline_report, { name: dataset.name, caseIds: cases.map(c => c.id) }, 'baseline_report')
      : undefined
    const { dataset: _d, version: _v, target: _t, baseline_report: _b, outputs_from: _o, output_step: _s, ...rest } = request
    const estimate = await this.estimateOf(dataset.id, target, resolved.workflow, cases, request.repeat)
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

  /** What a run of the request would cost, said before it starts (estimate.ts); the request is checked as `start` checks it. */
  async estimate(raw: DatasetRunRequest): Promise<CostEstimate> {
    const { request, dataset, cases, target, resolved } = await this.checked(raw)
    return this.estimateOf(dataset.id, target, resolved.workflow, cases, request.repeat)
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
    const target = await this.storedTarget(request.target, cases)
    let resolved = await this.resolve(target, request.grader)
    let recorded: RecordedOutputs | undefined
    if (recordedFrom) {
      recorded = { from: recordedFrom, step: alone ? null : generatingStep(resolved.workflow, this.deps.registry, request.output_step) }
      if (recorded.step) resolved = await this.resolve(target, request.grader, recorded)
    }
    return { request, dataset, cases, target, resolved, recorded }
  }

  /** From the newest finished run of the dataset on the same target (of its 20 newest) whose cost is known, else from the prompts. */
  private async estimateOf(datasetId: string, target: StoredTarget, workflow: Workflow, cases: readonly DatasetCase[], repeat: number): Promise<CostEstimate> {
    const { store } = this.deps
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
    return estimateFromPrompts(workflow, cases, repeat, this.deps.defaultJudge?.() ?? 'local:heuristic')
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

  private async storedTarget(target: z.infer<typeof datasetRunRequestSchema>['target'], cases: readonly DatasetCase[]): Promise<StoredTarget> {
    if ('evaluator' in target) {
      const present = new Set(cases.flatMap(c => Object.keys(c.input)))
      return { evaluator: target.evaluator, fields: EVALUATION_INPUT_FIELDS.filter(f => present.has(f)) }
    }
    const workflow = await findTargetWorkflow(this.deps.store, target)
    return { workflow_id: workflow.id, workflow_version: workflow.version }
  }

  /** The target's workflow; with recorded outputs, the step they stand in for pinned (each case's run pins it to the case's own). */
  private async resolve(target: StoredTarget, grader?: string, recorded?: RecordedOutputs): Promise<ResolvedTarget> {
    const graded = (definition: Record<string, unknown>) => (grader ? withGrader(definition, grader) : definition)
    const judged = (definition: Record<string, unknown>) => (recorded?.step ? pinnedTo(graded(definition), recorded.step, '') : graded(definition))
    if ('evaluator' in target) {
      const definition = judged(evaluatorWorkflow(target.evaluator, target.fields))
      return { definition, workflow: validatedWorkflow(definition, this.deps.registry, this.validation()), workflowId: null, workflowVersion: null }
    }
    const stored = await this.deps.store.workflows.get(target.workflow_id, target.workflow_version)
    if (!stored) throw new JudgeflowError('INVALID_INPUT', `target.workflow_id: workflow "${target.workflow_id}" version ${target.workflow_version} no longer exists`)
    const definition = judged(stored.definition)
    const workflow = validatedWorkflow(definition, this.deps.registry, this.validation())
    return { definition, workflow, workflowId: stored.id, workflowVersion: stored.version }
  }

  /** The workflows' models are checked against the app's providers (the library caller's own included). */
  private validation() {
    return { providers: this.deps.providers?.providerIds?.() }
  }

  private launch(row: DatasetRunRow): void {
    const controller = new AbortController()
    const progress: DatasetRunProgress = { id: row.id, status: 'running', total: 0, done: 0, not_run: 0, passed: 0, failed: 0, errored: 0 }
    const counts = new OutcomeCounts()
    const done = this.execute(row, controller.signal, progress, counts).catch(async (error: unknown) => {
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

  private async execute(row: DatasetRunRow, signal: AbortSignal, progress: DatasetRunProgress, counts: OutcomeCounts): Promise<void> {
    const { store, runs } = this.deps
    const options = row.options as unknown as StoredOptions
    const dataset = await store.datasets.get(row.datasetId, row.datasetVersion)
    if (!dataset) throw new JudgeflowError('NOT_FOUND', `dataset version ${row.datasetVersion} no longer exists`)
    const cases = selectedCases(dataset.cases as DatasetCase[], options)
    const byId = new Map(cases.map(c => [c.id, c]))
    const target = await this.resolve(row.target as unknown as StoredTarget, options.grader, options.recorded)
    const key = (caseId: string, repeat: number) => `${caseId}#${repeat}`
    const existing = new Map((await store.datasets.runCases(row.id)).map(c => [key(c.caseId, c.repeat), c]))
    const results: CaseResult[] = []
    const underWay = new Map<string, string>()
    // The case rows stored as running, by key: those left when the dataset run ends are closed as cancelled.
    const open = new Map<string, CaseTask & { runId: string | null }>()
    for (const [k, c] of existing) {
      if (c.status === 'running') open.set(k, { case_id: c.caseId, repeat: c.repeat, runId: c.runId })
      if (c.status === 'running' && c.runId) underWay.set(k, c.runId)
      else if (c.result) results.push(c.result as unknown as CaseResult)
    }
    const tasks: CaseTask[] = []
    for (const c of cases) {
      for (let repeat = 1; repeat <= options.repeat; repeat++) {
        const done = existing.get(key(c.id, repeat))
        if (!done || done.status === 'running') tasks.push({ case_id: c.id, repeat })
      }
    }
    for (const result of results) counts.add(result)
    // The budget: what the case runs have cost so far (resumed runs included); none starts once it is spent.
    const budget = options.max_cost_usd
    let spent = results.reduce((sum, r) => sum + (r.cost_usd ?? 0), 0)
    let unpriced: string | null = null
    const overBudget = (): string | null => {
      if (budget === undefined) return null
      if (unpriced) return `not run: the cost of run ${unpriced} is not known (a model without a price), so the budget of $${budget} cannot be held`
      return spent >= budget ? `not run: the budget of $${budget} was reached ($${round6(spent)} spent)` : null
    }
    // Case runs under way hold the budget at the estimated cost per case run until they end: no case
    // starts that what is left cannot pay for. Without a known estimate, one runs at a time.
    const perCase = options.estimate?.estimate_usd == null || !options.estimate.case_runs ? null : options.estimate.estimate_usd / options.estimate.case_runs
    const held = { runs: 0, usd: 0 }
    const waiting: Array<() => void> = []
    const admit = async (abort: AbortSignal): Promise<string | null> => {
      for (;;) {
        const stop = overBudget()
        if (stop || budget === undefined) return stop
        if (abort.aborted) return 'not run: the dataset run was cancelled'
        const fits = perCase === null ? held.runs === 0 : spent + held.usd + perCase <= budget + 1e-12
        if (fits) {
          held.runs++
          held.usd += perCase ?? 0
          return null
        }
        if (held.runs === 0) return `not run: the budget left ($${round6(budget - spent)} of $${budget}) cannot pay for another case run at the estimated $${round6(perCase!)} each`
        await new Promise<void>((resolve) => {
          waiting.push(resolve)
          abort.addEventListener('abort', () => resolve(), { once: true })
        })
      }
    }
    const release = () => {
      held.runs--
      held.usd -= perCase ?? 0
      for (const wake of waiting.splice(0)) wake()
    }
    Object.assign(progress, { total: cases.length * options.repeat }, countsOf(counts))
    this.tell(progress)
    // Repeats measure how the answers vary: each asks the model anew.
    const runOptions = options.repeat > 1 || options.cache === false ? { cache: false } : {}

    const execute = async (task: CaseTask, abort: AbortSignal): Promise<CaseRunOutcome> => {
      const k = key(task.case_id, task.repeat)
      // A run under way at the last stop is followed; a case run again (rate-limited) gets a new run.
      let runId = underWay.get(k)
      underWay.delete(k)
      let holds = false
      try {
        if (!runId || !(await store.runs.get(runId))) {
          const stop = await admit(abort)
          if (stop) return { kind: 'result', result: { ...task, status: 'cancelled', error: stop } }
          holds = budget !== undefined
          runId ??= randomUUID()
          const saved: Omit<DatasetRunCaseRow, 'updatedAt'> = { datasetRunId: row.id, caseId: task.case_id, repeat: task.repeat, status: 'running', runId, result: null }
          await store.datasets.saveRunCase(saved)
          open.set(k, { ...task, runId })
          try {
            // A recorded output pins the step it stands in for, or is the content an evaluator alone judges.
            const { definition, input } = caseRunOf(target.definition, byId.get(task.case_id)!, options.recorded)
            // A pinned definition is not the stored version's: validated as its own, not from the version's cache.
            const version = options.recorded?.step ? null : target.workflowVersion
            await runs.start({ id: runId, definition, workflowId: target.workflowId, workflowVersion: version, input, options: runOptions })
          }
          catch (error) {
            if (!(error instanceof JudgeflowError) || error.category === 'system') throw error
            if (error.code === 'TOO_MANY_RUNS') return { kind: 'rate_limited', retryAfterMs: 1_000, error: error.message }
            return { kind: 'result', result: { ...task, status: 'errored', run_id: runId, error: error.message } }
          }
        }
        const ended = await this.followRun(runId, abort)
        const steps = await store.runs.steps(runId)
        const runCost = spendingOf(steps, target.workflow)
        const finishedRun = {
          id: runId, result: runResultOf(ended, steps), latency_ms: ended.durationMs ?? 0, tokens: runCost.tokens, cost_usd: runCost.cost_usd,
        }
        const outcome = caseRunOutcome(task, target.workflow, finishedRun, { scoreStep: options.score_step })
        // Counted as soon as the run ends, before its result is written: the next case checks the budget against it.
        if (runCost.cost_usd === null) unpriced ??= runId
        else spent += runCost.cost_usd
        return outcome
      }
      finally {
        // Its estimated cost is no longer held: what it cost is in `spent`.
        if (holds) release()
      }
    }

    const save = (result: CaseResult) => store.datasets.saveRunCase({
      datasetRunId: row.id, caseId: result.case_id, repeat: result.repeat, status: result.status, runId: result.run_id ?? null,
      result: result as unknown as Record<string, unknown>,
    })
    // Cut off by a cancel or a failure, not by the process stopping: the rows still running will never end, so they are closed.
    const closeOpen = async (why: string) => {
      for (const { runId, ...task } of open.values()) {
        const cancelled: CaseResult = { ...task, status: 'cancelled', ...(runId ? { run_id: runId } : {}), error: why }
        await save(cancelled)
        results.push(cancelled)
        counts.add(cancelled)
      }
      open.clear()
      Object.assign(progress, countsOf(counts))
    }
    try {
      await runCases({
        tasks,
        concurrency: options.concurrency,
        delayMs: options.delay_ms,
        signal,
        execute,
        commit: async (result) => {
          await save(result)
          open.delete(key(result.case_id, result.repeat))
          results.push(result)
          counts.add(result)
          Object.assign(progress, countsOf(counts))
          this.tell(progress)
        },
      })
    }
    catch (error) {
      await closeOpen(`the dataset run failed: ${(error as Error).message}`).catch(reportWriteFailure)
      throw error
    }
    if (signal.aborted && (signal.reason as Error | undefined)?.message === STOPPING) return
    await closeOpen('the dataset run was cancelled')
    if (!signal.aborted) {
      // Comparisons of a test's outputs across its cells (select-best), once every cell has run.
      const settled = await settleComparisons(results, cases, group => this.compare(group, runOptions, signal))
      // Stopping, not cancelled: the cells keep waiting, and their comparisons run when the dataset run resumes.
      if (signal.aborted && (signal.reason as Error | undefined)?.message === STOPPING) return
      for (const result of settled) {
        await save(result)
        results[results.findIndex(r => r.case_id === result.case_id && r.repeat === result.repeat)] = result
      }
      if (settled.length) {
        const recounted = new OutcomeCounts()
        for (const result of results) recounted.add(result)
        Object.assign(progress, countsOf(recounted))
        this.tell(progress)
      }
    }
    const baselineRow = options.baseline_run_id ? await store.datasets.getRun(options.baseline_run_id) : null
    const report = buildDatasetReport({
      dataset: { id: dataset.id, name: dataset.name, version: dataset.version, cases },
      target: 'evaluator' in (row.target as object) ? { evaluator: true } : { workflow_id: target.workflowId! },
      results,
      gates: options.gates,
      baseline: baselineRow ? (baselineRow.report ?? undefined) as DatasetReport | undefined : options.baseline,
      baseline_label: options.baseline_label,
      dataset_run_id: row.id,
      ...(budget === undefined ? {} : { max_cost_usd: budget }),
      ...(options.estimate ? { estimate_usd: options.estimate.estimate_usd } : {}),
      ...(options.recorded ? { recorded_outputs: options.recorded } : {}),
      ...(options.calibration ? { calibration: options.calibration } : {}),
    })
    progress.status = signal.aborted ? 'cancelled' : 'finished'
    await store.datasets.updateRun(row.id, { status: progress.status, report: report as unknown as Record<string, unknown>, finishedAt: Date.now() })
  }
}

const round6 = (x: number) => Math.round(x * 1e6) / 1e6

/** How many of a dataset's newest finished runs an estimate looks at for one on the same target. */
const ESTIMATE_RUNS_LOOKED_AT = 20

function countsOf(counts: OutcomeCounts): Pick<DatasetRunProgress, 'done' | 'not_run' | 'passed' | 'failed' | 'errored'> {
  return { done: counts.runs, not_run: counts.notRun, passed: counts.passed, failed: counts.failed, errored: counts.errored }
}

/** The progress a dataset run's stored results give: as many case runs as ended, run or not. */
function progressOfResults(id: string, status: string, results: readonly CaseRun[]): DatasetRunProgress {
  const counts = new OutcomeCounts()
  for (const result of results) counts.add(result)
  return { id, status, total: counts.runs + counts.notRun, ...countsOf(counts) }
}

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
