import { randomUUID } from 'node:crypto'
import { JudgeflowError } from '../../engine'
import {
  buildDatasetReport, caseRunOutcome, OutcomeCounts, runCases, settleComparisons,
  type CaseResult, type CaseRunOutcome, type CaseTask, type ComparisonGroup, type ComparisonOutcome, type DatasetCase, type DatasetReport,
} from '../../engine/datasets'
import { caseRunOf } from '../../engine/datasets/recorded-outputs'
import { selectedCases, type StoredOptions } from '../dataset-run-request'
import type { DatasetRunCaseRow, DatasetRunRow, RunRow } from '../rows'
import { reportWriteFailure } from '../runs/run-writer'
import { CaseBudget } from './case-budget'
import { countsOf, runResultOf, spendingOf } from './run-results'
import { resolveTarget } from './targets'
import { STOPPING, type DatasetRunProgress, type DatasetRunsDeps, type ResolvedTarget, type StoredTarget } from './types'

/** What a dataset run's execution asks of the dataset runs that started it. */
export interface ExecutionHooks {
  /** Waits for a case run's end; the dataset run's abort cancels it, unless the process is stopping. */
  followRun: (runId: string, signal: AbortSignal) => Promise<RunRow>
  /** One comparison of a test's outputs, run as a run of its own. */
  compare: (group: ComparisonGroup, options: Record<string, unknown>, signal: AbortSignal) => Promise<ComparisonOutcome>
  /** Tells the run's followers its progress. */
  tell: (progress: DatasetRunProgress) => void
}

const key = (caseId: string, repeat: number) => `${caseId}#${repeat}`

/**
 * One dataset run executed to its end: its cases' rows read (those finished are kept, a run under
 * way at the last stop is followed), the case runs left run within the budget, the select-best
 * comparisons settled once every cell has run, and the report written. A case's row is written
 * with its run's id before the run starts and with its result when the run ends.
 */
export class DatasetRunExecution {
  private readonly options: StoredOptions
  private readonly results: CaseResult[] = []
  /** Case rows stored as running with their run, by key: that run is followed, not started anew. */
  private readonly underWay = new Map<string, string>()
  /** The case rows stored as running, by key: those left when the dataset run ends are closed as cancelled. */
  private readonly open = new Map<string, CaseTask & { runId: string | null }>()
  private dataset = { id: '', name: '', version: 0 }
  private cases: DatasetCase[] = []
  private byId = new Map<string, DatasetCase>()
  private target!: ResolvedTarget
  private budget!: CaseBudget
  /** Repeats measure how the answers vary: each asks the model anew. */
  private readonly runOptions: Record<string, unknown>

  constructor(
    private readonly deps: DatasetRunsDeps,
    private readonly hooks: ExecutionHooks,
    private readonly row: DatasetRunRow,
    private readonly signal: AbortSignal,
    private readonly progress: DatasetRunProgress,
    private readonly counts: OutcomeCounts,
  ) {
    this.options = row.options as unknown as StoredOptions
    this.runOptions = this.options.repeat > 1 || this.options.cache === false ? { cache: false } : {}
  }

  async run(): Promise<void> {
    const tasks = await this.prepare()
    const { options, signal } = this
    try {
      await runCases({
        tasks, concurrency: options.concurrency, delayMs: options.delay_ms, signal,
        execute: (task, abort) => this.runCase(task, abort),
        commit: result => this.commit(result),
      })
    }
    catch (error) {
      await this.closeOpen(`the dataset run failed: ${(error as Error).message}`).catch(reportWriteFailure)
      throw error
    }
    if (this.stopping()) return
    await this.closeOpen('the dataset run was cancelled')
    if (!signal.aborted) {
      await this.settle()
      // Stopping, not cancelled: the cells keep waiting, and their comparisons run when the dataset run resumes.
      if (this.stopping()) return
    }
    await this.finish()
  }

  /** The cases, the target and the rows of an earlier start: the case runs still to run. */
  private async prepare(): Promise<CaseTask[]> {
    const { store } = this.deps
    const { row, options } = this
    const dataset = await store.datasets.get(row.datasetId, row.datasetVersion)
    if (!dataset) throw new JudgeflowError('NOT_FOUND', `dataset version ${row.datasetVersion} no longer exists`)
    this.dataset = { id: dataset.id, name: dataset.name, version: dataset.version }
    this.cases = selectedCases(dataset.cases as DatasetCase[], options)
    this.byId = new Map(this.cases.map(c => [c.id, c]))
    this.target = await resolveTarget(this.deps, row.target as unknown as StoredTarget, options.grader, options.recorded)
    const existing = new Map((await store.datasets.runCases(row.id)).map(c => [key(c.caseId, c.repeat), c]))
    for (const [k, c] of existing) {
      if (c.status === 'running') this.open.set(k, { case_id: c.caseId, repeat: c.repeat, runId: c.runId })
      if (c.status === 'running' && c.runId) this.underWay.set(k, c.runId)
      else if (c.result) this.results.push(c.result as unknown as CaseResult)
    }
    const tasks: CaseTask[] = []
    for (const c of this.cases) {
      for (let repeat = 1; repeat <= options.repeat; repeat++) {
        const done = existing.get(key(c.id, repeat))
        if (!done || done.status === 'running') tasks.push({ case_id: c.id, repeat })
      }
    }
    for (const result of this.results) this.counts.add(result)
    this.budget = new CaseBudget(options.max_cost_usd, options.estimate, this.results.reduce((sum, r) => sum + (r.cost_usd ?? 0), 0))
    Object.assign(this.progress, { total: this.cases.length * options.repeat }, countsOf(this.counts))
    this.hooks.tell(this.progress)
    return tasks
  }

  /** One case run: started (within the budget) unless one was under way at the last stop, followed to its end, and judged. */
  private async runCase(task: CaseTask, abort: AbortSignal): Promise<CaseRunOutcome> {
    const { store } = this.deps
    const k = key(task.case_id, task.repeat)
    // A run under way at the last stop is followed; a case run again (rate-limited) gets a new run.
    let runId = this.underWay.get(k)
    this.underWay.delete(k)
    let holds = false
    try {
      if (!runId || !(await store.runs.get(runId))) {
        const stop = await this.budget.admit(abort)
        if (stop) return { kind: 'result', result: { ...task, status: 'cancelled', error: stop } }
        holds = this.budget.holds
        runId ??= randomUUID()
        const refused = await this.startCase(task, runId)
        if (refused) return refused
      }
      const ended = await this.hooks.followRun(runId, abort)
      const steps = await store.runs.steps(runId)
      const runCost = spendingOf(steps, this.target.workflow)
      const finishedRun = {
        id: runId, result: runResultOf(ended, steps), latency_ms: ended.durationMs ?? 0, tokens: runCost.tokens, cost_usd: runCost.cost_usd,
      }
      const outcome = caseRunOutcome(task, this.target.workflow, finishedRun, { scoreStep: this.options.score_step })
      // Counted as soon as the run ends, before its result is written: the next case checks the budget against it.
      this.budget.charge(runId, runCost.cost_usd)
      return outcome
    }
    finally {
      // Its estimated cost is no longer held: what it cost is charged.
      if (holds) this.budget.release()
    }
  }

  /** Writes the case's row with its run's id, then starts the run; a start refused is the case's outcome. */
  private async startCase(task: CaseTask, runId: string): Promise<CaseRunOutcome | null> {
    const { options, target } = this
    const saved: Omit<DatasetRunCaseRow, 'updatedAt'> = { datasetRunId: this.row.id, caseId: task.case_id, repeat: task.repeat, status: 'running', runId, result: null }
    await this.deps.store.datasets.saveRunCase(saved)
    this.open.set(key(task.case_id, task.repeat), { ...task, runId })
    try {
      // A recorded output pins the step it stands in for, or is the content an evaluator alone judges.
      const { definition, input } = caseRunOf(target.definition, this.byId.get(task.case_id)!, options.recorded)
      // A pinned definition is not the stored version's: validated as its own, not from the version's cache.
      const version = options.recorded?.step ? null : target.workflowVersion
      await this.deps.runs.start({ id: runId, definition, workflowId: target.workflowId, workflowVersion: version, input, options: this.runOptions })
      return null
    }
    catch (error) {
      if (!(error instanceof JudgeflowError) || error.category === 'system') throw error
      if (error.code === 'TOO_MANY_RUNS') return { kind: 'rate_limited', retryAfterMs: 1_000, error: error.message }
      return { kind: 'result', result: { ...task, status: 'errored', run_id: runId, error: error.message } }
    }
  }

  private async commit(result: CaseResult): Promise<void> {
    await this.save(result)
    this.open.delete(key(result.case_id, result.repeat))
    this.results.push(result)
    this.counts.add(result)
    Object.assign(this.progress, countsOf(this.counts))
    this.hooks.tell(this.progress)
  }

  private async save(result: CaseResult): Promise<void> {
    await this.deps.store.datasets.saveRunCase({
      datasetRunId: this.row.id, caseId: result.case_id, repeat: result.repeat, status: result.status, runId: result.run_id ?? null,
      result: result as unknown as Record<string, unknown>,
    })
  }

  /** Cut off by a cancel or a failure, not by the process stopping: the rows still running will never end, so they are closed. */
  private async closeOpen(why: string): Promise<void> {
    for (const { runId, ...task } of this.open.values()) {
      const cancelled: CaseResult = { ...task, status: 'cancelled', ...(runId ? { run_id: runId } : {}), error: why }
      await this.save(cancelled)
      this.results.push(cancelled)
      this.counts.add(cancelled)
    }
    this.open.clear()
    Object.assign(this.progress, countsOf(this.counts))
  }

  /** Comparisons of a test's outputs across its cells (select-best), once every cell has run. */
  private async settle(): Promise<void> {
    const { results, signal } = this
    const settled = await settleComparisons(results, this.cases, group => this.hooks.compare(group, this.runOptions, signal))
    if (this.stopping()) return
    for (const result of settled) {
      await this.save(result)
      results[results.findIndex(r => r.case_id === result.case_id && r.repeat === result.repeat)] = result
    }
    if (settled.length) {
      const recounted = new OutcomeCounts()
      for (const result of results) recounted.add(result)
      Object.assign(this.progress, countsOf(recounted))
      this.hooks.tell(this.progress)
    }
  }

  /** The report, written with the run's end. */
  private async finish(): Promise<void> {
    const { store } = this.deps
    const { row, options, target, progress, signal } = this
    const baselineRow = options.baseline_run_id ? await store.datasets.getRun(options.baseline_run_id) : null
    const report = buildDatasetReport({
      dataset: { ...this.dataset, cases: this.cases },
      target: 'evaluator' in (row.target as object) ? { evaluator: true } : { workflow_id: target.workflowId! },
      results: this.results,
      gates: options.gates,
      baseline: baselineRow ? (baselineRow.report ?? undefined) as DatasetReport | undefined : options.baseline,
      baseline_label: options.baseline_label,
      dataset_run_id: row.id,
      ...(options.max_cost_usd === undefined ? {} : { max_cost_usd: options.max_cost_usd }),
      ...(options.estimate ? { estimate_usd: options.estimate.estimate_usd } : {}),
      ...(options.recorded ? { recorded_outputs: options.recorded } : {}),
      ...(options.calibration ? { calibration: options.calibration } : {}),
    })
    progress.status = signal.aborted ? 'cancelled' : 'finished'
    await store.datasets.updateRun(row.id, { status: progress.status, report: report as unknown as Record<string, unknown>, finishedAt: Date.now() })
  }

  private stopping(): boolean {
    return this.signal.aborted && (this.signal.reason as Error | undefined)?.message === STOPPING
  }
}
