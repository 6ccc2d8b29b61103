/**
 * Scoring the queued decisions: each as a durable run (RunService: SQLite in one process, the
 * PostgreSQL queue when scaled out) of the rule's evaluator over the span's output (`content`,
 * `actual`) and input (`context`). A decision is claimed with its run's id before the run starts,
 * so two processes never score it twice, and one whose run a crash left unstarted is started again
 * with the same id once its claim is CLAIM_GRACE_MS old. `max_per_minute` is counted in the
 * database (the rule's claims of the last minute), so the processes sharing it share the limit; it
 * delays a scoring to a later pump (it stays `queued`), never drops it. `max_cost_usd_per_day` (the
 * rule's scorings that ended since midnight UTC) makes the decision `over_budget`.
 *
 * Paced, so that scoring never starves ingestion on the same thread: at most `maxInFlight`
 * scorings started and not yet recorded in this process, at most `startsPerTick` started before
 * the pump yields to the event loop; a scoring recorded makes room and pumps again at once.
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
/** Scorings a process has in flight at most unless told (config.otlp.scoringsInFlight). */
export const DEFAULT_SCORINGS_IN_FLIGHT = 16
/** Scorings started at most before the pump lets the event loop answer requests. */
const STARTS_PER_TICK = 4
/** How long a claim is its claimer's to start and follow; older, another process takes it over. */
const CLAIM_GRACE_MS = 10_000
const DAY_MS = 86_400_000
/** The fields of the span an evaluator is handed. */
const SPAN_FIELDS = ['content', 'context', 'actual']

export interface OnlineScoringDeps {
  store: Store
  runs: Pick<RunService, 'start' | 'whenEnded'>
  now?: () => number
  /** Queued decisions of a rule one pump looks at (200). */
  batch?: number
  /** Scorings started or followed here and not yet recorded, at most (DEFAULT_SCORINGS_IN_FLIGHT). */
  maxInFlight?: number
  /** Scorings started before the pump yields to the event loop (4). */
  startsPerTick?: number
  /** CLAIM_GRACE_MS unless given (tests). */
  claimGraceMs?: number
}

const yieldToEventLoop = () => new Promise<void>(resolve => setImmediate(resolve))

export class OnlineScoring {
  /** The runs of the scorings this process started or follows, until their end is recorded. */
  private readonly inFlight = new Set<string>()
  private pumping: Promise<number> | undefined
  /** A pump was asked for while one went on: another follows it. */
  private again = false
  private soonScheduled = false
  private timer: ReturnType<typeof setInterval> | undefined
  private readonly now: () => number
  private readonly batch: number
  private readonly maxInFlight: number
  private readonly startsPerTick: number
  private readonly claimGraceMs: number

  constructor(private readonly deps: OnlineScoringDeps) {
    this.now = deps.now ?? Date.now
    this.batch = deps.batch ?? PUMP_BATCH
    this.maxInFlight = deps.maxInFlight ?? DEFAULT_SCORINGS_IN_FLIGHT
    this.startsPerTick = deps.startsPerTick ?? STARTS_PER_TICK
    this.claimGraceMs = deps.claimGraceMs ?? CLAIM_GRACE_MS
  }

  /** Pumps every `everyMs`, and as soon as a scoring ends, until `stop` (the server's; a CLI process scores nothing online). */
  start(everyMs = 1_000): void {
    this.timer ??= setInterval(() => this.kick(), everyMs)
    this.timer.unref?.()
  }

  stop(): void {
    clearInterval(this.timer)
    this.timer = undefined
  }

  /** Scorings started or followed here and not yet recorded. */
  get scoringsInFlight(): number {
    return this.inFlight.size
  }

  /**
   * Starts the scorings the rules' limits and the room in flight allow now, follows those claimed,
   * settles those over budget; the scorings started. One pump at a time.
   */
  pump(): Promise<number> {
    if (this.pumping) {
      this.again = true
      return this.pumping
    }
    this.pumping = this.pumpOnce().finally(() => {
      this.pumping = undefined
      if (this.again) {
        this.again = false
        this.soon()
      }
    })
    return this.pumping
  }

  private kick(): void {
    void this.pump().catch(error => console.error(`judgeflow: online scoring: ${(error as Error).message}`))
  }

  /** Another pump once the event loop has answered what waits (while started): a scoring ended, and made room. */
  private soon(): void {
    if (!this.timer || this.soonScheduled) return
    this.soonScheduled = true
    setImmediate(() => {
      this.soonScheduled = false
      this.kick()
    })
  }

  private async pumpOnce(): Promise<number> {
    let started = 0
    // Rule by rule: a rule held back by its limit never keeps another's spans waiting.
    for (const rule of await this.deps.store.online.listRules()) started += await this.pumpRule(rule)
    return started
  }

  private room(): number {
    return this.maxInFlight - this.inFlight.size
  }

  /** The rule's oldest queued decisions: those claimed and left by their claimer taken over, the others started while the rule is on and its limits allow. */
  private async pumpRule(rule: OnlineRuleRow): Promise<number> {
    const waiting: OnlineDecisionRow[] = []
    const config = lazy(() => this.stepConfigOf(rule))
    for (const decision of await this.deps.store.online.queued(rule.id, this.batch)) {
      if (decision.runId === null) waiting.push(decision)
      // Claimed a moment ago by another process: it is starting the run, and follows it.
      else if (!this.inFlight.has(decision.runId) && this.room() > 0 && (decision.claimedAt ?? 0) <= this.now() - this.claimGraceMs) {
        await this.resume(rule, decision, decision.runId, config)
      }
    }
    // A paused rule starts nothing: its queued spans wait for it to be on again.
    return rule.enabled ? this.startWaiting(rule, waiting, config) : 0
  }

  /** Claims and starts the waiting decisions, a tick's worth at a time, while there is room in flight and the rule's limits allow. */
  private async startWaiting(rule: OnlineRuleRow, waiting: OnlineDecisionRow[], config: () => Promise<Record<string, unknown>>): Promise<number> {
    let started = 0
    for (let next = 0; next < waiting.length;) {
      const room = Math.min(this.startsPerTick, this.room())
      if (room <= 0) break
      const tick = waiting.slice(next, next += room)
      if (!(await this.overBudget(rule, tick))) {
        const claimed = await this.claimAndStart(rule, tick, config)
        started += claimed
        // Refused by the rule's limit (or taken by another process meanwhile): the rest waits for a later pump.
        if (claimed < tick.length && rule.maxPerMinute !== null) break
      }
      await yieldToEventLoop()
    }
    return started
  }

  /** Claims the decisions (those the rule's limit admits and no other process took) and starts their scorings; how many. */
  private async claimAndStart(rule: OnlineRuleRow, decisions: OnlineDecisionRow[], config: () => Promise<Record<string, unknown>>): Promise<number> {
    const claims = decisions.map(({ traceId, spanId }) => ({ traceId, spanId, runId: randomUUID() }))
    const taken = await this.deps.store.online.claim(rule.id, claims, { now: this.now(), maxPerMinute: rule.maxPerMinute })
    const mine = decisions.flatMap((decision, n) => taken[n] ? [{ decision, runId: claims[n]!.runId }] : [])
    for (const { runId } of mine) this.inFlight.add(runId)
    await Promise.all(mine.map(({ decision, runId }) => this.run(rule, decision, runId, config)))
    return mine.length
  }

  /** Marks the decisions over_budget when the rule's scorings today cost its max_cost_usd_per_day; whether they were. */
  private async overBudget(rule: OnlineRuleRow, decisions: readonly DecisionRef[]): Promise<boolean> {
    if (rule.maxCostUsdPerDay === null) return false
    const now = this.now()
    const spent = await this.deps.store.online.spentSince(rule.id, now - (now % DAY_MS))
    if (spent < rule.maxCostUsdPerDay) return false
    const reason = `the rule's budget of $${rule.maxCostUsdPerDay} a day (max_cost_usd_per_day) is spent: $${spent.toFixed(4)} since 00:00 UTC`
    for (const decision of decisions) await this.deps.store.online.updateDecision(decision, { status: 'over_budget', reason })
    return true
  }

  /** A decision whose run was claimed and left by its claimer: followed to its end, or started again when a crash left it unstored. */
  private async resume(rule: OnlineRuleRow, decision: OnlineDecisionRow, runId: string, config: () => Promise<Record<string, unknown>>): Promise<void> {
    this.inFlight.add(runId)
    try {
      if ((await this.deps.store.runs.statuses([runId])).has(runId)) return this.follow(decision, runId)
    }
    catch (error) {
      this.inFlight.delete(runId)
      throw error
    }
    await this.run(rule, decision, runId, config)
  }

  private async run(rule: OnlineRuleRow, decision: OnlineDecisionRow, runId: string, stepConfig: () => Promise<Record<string, unknown>>): Promise<void> {
    try {
      const span = await this.deps.store.online.getSpan(decision.traceId, decision.spanId)
      if (!span) throw new JudgeflowError('INVALID_INPUT', 'the span is no longer stored')
      const config = await stepConfig()
      // The trace type judges the call's steps: the trace is read from the stored spans of its trace.
      const traced = config.evaluation_type === 'trace'
      const definition = evaluatorWorkflow(config, traced ? [...SPAN_FIELDS, 'trace'] : SPAN_FIELDS)
      await this.deps.runs.start({ id: runId, definition, input: { ...spanInput(span), ...(traced ? { trace: await spanTrace(this.deps.store, span) } : {}) } })
    }
    catch (error) {
      // Started meanwhile by a process that took the claim over: followed as its own.
      const started = await Promise.resolve(this.deps.store.runs.statuses([runId])).then(found => found.has(runId), () => false)
      if (!started) {
        await Promise.resolve(this.deps.store.online.updateDecision(decision, { status: 'failed', reason: `the scoring could not start: ${(error as Error).message}` }))
          .catch(failed => console.error(`judgeflow: online scoring: ${(failed as Error).message}`))
        this.inFlight.delete(runId)
        return
      }
    }
    this.follow(decision, runId)
  }

  private follow(decision: DecisionRef, runId: string): void {
    void this.deps.runs.whenEnded(runId)
      .then(run => this.record(decision, run))
      .catch(error => console.error(`judgeflow: online scoring: run ${runId}: ${(error as Error).message}`))
      .finally(() => {
        this.inFlight.delete(runId)
        this.soon()
      })
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

/** `make()` once, on first call. */
function lazy<T>(make: () => Promise<T>): () => Promise<T> {
  let made: Promise<T> | undefined
  return () => (made ??= make())
}
