/**
 * Scoring the queued decisions: each as a durable run (RunService: SQLite in one process, the
 * PostgreSQL queue when scaled out) of the rule's evaluator over the span's output (`content`,
 * `actual`) and input (`context`). A decision is claimed with its run's id before the run starts,
 * so two processes never score it twice, and one whose run a crash left unstarted is started again
 * with the same id. `max_per_minute` delays a scoring to a later pump (it stays `queued`), never
 * drops it; `max_cost_usd_per_day` (the rule's scorings that ended since midnight UTC) makes the
 * decision `over_budget`. The admission window is this process's: each process scoring applies it.
 */
import { randomUUID } from 'node:crypto'
import { JudgeflowError } from '../../engine/errors'
import { EVALUATION_INPUTS } from '../../engine/evaluation-types/fields'
import { evaluatorWorkflow } from '../dataset-runs/targets'
import { spendingOf } from '../dataset-runs/run-results'
import type { RunRow } from '../rows'
import type { DecisionRef, OnlineDecisionRow, OnlineRuleRow, OnlineSpanRow } from '../online-rows'
import type { RunService } from '../runs/run-service'
import type { Store } from '../store'
import { spanTrace } from './span-trace'

/** Queued decisions of a rule one pump looks at. */
const PUMP_BATCH = 200
const DAY_MS = 86_400_000
const MINUTE_MS = 60_000
/** The fields of the span an evaluator is handed. */
const SPAN_FIELDS = ['content', 'context', 'actual']

export interface OnlineScoringDeps {
  store: Store
  runs: Pick<RunService, 'start' | 'whenEnded'>
  now?: () => number
  /** Queued decisions of a rule one pump looks at (200). */
  batch?: number
}

export class OnlineScoring {
  /** Per rule, when its scorings started in the last minute (this process's). */
  private readonly starts = new Map<string, number[]>()
  private readonly following = new Set<string>()
  private pumping: Promise<number> | undefined
  private timer: ReturnType<typeof setInterval> | undefined
  private readonly now: () => number
  private readonly batch: number

  constructor(private readonly deps: OnlineScoringDeps) {
    this.now = deps.now ?? Date.now
    this.batch = deps.batch ?? PUMP_BATCH
  }

  /** Pumps every `everyMs` until `stop` (the server's; a CLI process scores nothing online). */
  start(everyMs = 1_000): void {
    this.timer ??= setInterval(() => void this.pump().catch(error => console.error(`judgeflow: online scoring: ${(error as Error).message}`)), everyMs)
    this.timer.unref?.()
  }

  stop(): void {
    clearInterval(this.timer)
    this.timer = undefined
  }

  /** Starts the scorings the rules' limits allow now, follows those started, settles those over budget; the scorings started. One pump at a time. */
  pump(): Promise<number> {
    this.pumping ??= this.pumpOnce().finally(() => { this.pumping = undefined })
    return this.pumping
  }

  private async pumpOnce(): Promise<number> {
    let started = 0
    // Rule by rule: a rule held back by its limit never keeps another's spans waiting.
    for (const rule of await this.deps.store.online.listRules()) started += await this.pumpRule(rule)
    return started
  }

  /** The rule's oldest queued decisions: those started followed, the others started while the rule is on and its limits allow. */
  private async pumpRule(rule: OnlineRuleRow): Promise<number> {
    let started = 0
    for (const decision of await this.deps.store.online.queued(rule.id, this.batch)) {
      if (decision.runId !== null) {
        await this.resume(decision, decision.runId, rule)
        continue
      }
      // A paused rule starts nothing: its queued spans wait for it to be on again.
      if (!rule.enabled || !this.admitted(rule)) continue
      if (await this.overBudget(rule, decision)) continue
      if (await this.startScoring(rule, decision)) started++
    }
    return started
  }

  /** Whether the rule may start a scoring now (max_per_minute over the last minute); counted when it may. */
  private admitted(rule: OnlineRuleRow): boolean {
    const now = this.now()
    const recent = (this.starts.get(rule.id) ?? []).filter(at => at > now - MINUTE_MS)
    if (rule.maxPerMinute !== null && recent.length >= rule.maxPerMinute) {
      this.starts.set(rule.id, recent)
      return false
    }
    this.starts.set(rule.id, [...recent, now])
    return true
  }

  private async overBudget(rule: OnlineRuleRow, decision: DecisionRef): Promise<boolean> {
    if (rule.maxCostUsdPerDay === null) return false
    const now = this.now()
    const spent = await this.deps.store.online.spentSince(rule.id, now - (now % DAY_MS))
    if (spent < rule.maxCostUsdPerDay) return false
    await this.deps.store.online.updateDecision(decision, {
      status: 'over_budget', reason: `the rule's budget of $${rule.maxCostUsdPerDay} a day (max_cost_usd_per_day) is spent: $${spent.toFixed(4)} since 00:00 UTC`,
    })
    return true
  }

  private async startScoring(rule: OnlineRuleRow, decision: OnlineDecisionRow): Promise<boolean> {
    const runId = randomUUID()
    if (!(await this.deps.store.online.claim(decision, runId))) return false
    await this.run(rule, decision, runId)
    return true
  }

  /** A decision whose run was started: followed to its end, or started again when a crash left it unstored. */
  private async resume(decision: OnlineDecisionRow, runId: string, rule: OnlineRuleRow): Promise<void> {
    if (this.following.has(runId)) return
    if (await this.deps.store.runs.get(runId)) return this.follow(decision, runId)
    await this.run(rule, decision, runId)
  }

  private async run(rule: OnlineRuleRow, decision: OnlineDecisionRow, runId: string): Promise<void> {
    try {
      const span = await this.deps.store.online.getSpan(decision.traceId, decision.spanId)
      if (!span) throw new JudgeflowError('INVALID_INPUT', 'the span is no longer stored')
      const config = await this.stepConfigOf(rule)
      // The trace type judges the call's steps: the trace is read from the stored spans of its trace.
      const traced = config.evaluation_type === 'trace'
      const definition = evaluatorWorkflow(config, traced ? [...SPAN_FIELDS, 'trace'] : SPAN_FIELDS)
      await this.deps.runs.start({ id: runId, definition, input: { ...spanInput(span), ...(traced ? { trace: await spanTrace(this.deps.store, span) } : {}) } })
    }
    catch (error) {
      await this.deps.store.online.updateDecision(decision, { status: 'failed', reason: `the scoring could not start: ${(error as Error).message}` })
      return
    }
    this.follow(decision, runId)
  }

  private follow(decision: DecisionRef, runId: string): void {
    if (this.following.has(runId)) return
    this.following.add(runId)
    void this.deps.runs.whenEnded(runId)
      .then(run => this.record(decision, run))
      .catch(error => console.error(`judgeflow: online scoring: run ${runId}: ${(error as Error).message}`))
      .finally(() => this.following.delete(runId))
  }

  /** The run's end as the decision's: scored with the evaluator's score, verdict and feedback, or failed with why. */
  private async record(decision: DecisionRef, run: RunRow): Promise<void> {
    const steps = await this.deps.store.runs.steps(run.id)
    const definition = run.definition as { nodes: Array<{ id: string, type: string }> }
    const evaluated = steps.filter(step => step.nodeId === 'evaluator' && step.status === 'succeeded').at(-1)?.output as
      { overall_score?: number, passed?: boolean, feedback?: string } | undefined
    const costUsd = spendingOf(steps, definition).cost_usd
    if (run.status !== 'succeeded' || typeof evaluated?.overall_score !== 'number') {
      const message = (run.error as { message?: string } | null)?.message ?? `the run ended ${run.status}`
      await this.deps.store.online.updateDecision(decision, { status: 'failed', reason: message.slice(0, 1_000), runId: run.id, costUsd })
      return
    }
    await this.deps.store.online.updateDecision(decision, {
      status: 'scored', score: evaluated.overall_score, verdict: run.verdict ?? (evaluated.passed ? 'pass' : 'fail'),
      reason: evaluated.feedback ? evaluated.feedback.slice(0, 1_000) : null, runId: run.id, costUsd,
    })
  }

  /**
   * The evaluator step's config, without what it judges: the rule's evaluator config (its trace
   * settings as a step's `trace_options`), or the saved step's as the workflow is now.
   */
  private async stepConfigOf(rule: OnlineRuleRow): Promise<Record<string, unknown>> {
    if ('config' in rule.evaluator) {
      const { trace: options, ...config } = rule.evaluator.config
      return options === undefined ? config : { ...config, trace_options: options }
    }
    const { workflow_id: workflowId, step_id: stepId } = rule.evaluator
    const workflow = await this.deps.store.workflows.get(workflowId)
    const node = (workflow?.definition.nodes as Array<{ id: string, type: string, config?: Record<string, unknown> }> | undefined)
      ?.find(n => n.id === stepId && n.type === 'evaluator')
    if (!node) throw new JudgeflowError('INVALID_INPUT', `workflow "${workflowId}" has no evaluator step "${stepId}" any more`)
    // What the step judged in its workflow (another step's output) is the span's here.
    return Object.fromEntries(Object.entries(node.config ?? {}).filter(([key]) => !(key in EVALUATION_INPUTS)))
  }
}

/** What the evaluator judges of a span: its output, and its input as the context. */
export function spanInput(span: OnlineSpanRow): Record<string, string> {
  return { content: span.outputText ?? '', actual: span.outputText ?? '', context: span.inputText ?? '' }
}
