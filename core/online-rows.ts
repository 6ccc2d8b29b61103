/**
 * Online scoring's rows and repository (DESIGN.md, "Production traces: online scoring"): the rules,
 * the GenAI spans received, and one decision per span and rule that saw it. Both stores return
 * these shapes; `db/row-types.ts` checks the tables against them. Times are epoch milliseconds.
 */
import type { OnlineEvaluatorRef } from '../engine/online/rule-schema'
import type { OnlineFilter } from '../engine/online/selection'
import type { MaybePromise } from './rows'

/** What a rule decided for a span, and what became of it: every span a rule sees gets one. */
export const ONLINE_DECISION_STATUSES = ['filtered', 'sampled_out', 'queued', 'scored', 'failed', 'over_budget'] as const
export type OnlineDecisionStatus = typeof ONLINE_DECISION_STATUSES[number]

/** The evaluator a rule runs: an evaluator step of a saved workflow, or an evaluator config. */
export type { OnlineEvaluatorRef }

export interface OnlineRuleRow {
  id: string
  name: string
  enabled: boolean
  evaluator: OnlineEvaluatorRef
  filter: OnlineFilter
  /** 0–1: the share of the spans past the filter that are scored (deterministic per span). */
  sampleRate: number
  /** Scorings started per minute at most (null: no limit); the others wait their turn. */
  maxPerMinute: number | null
  /** US dollars of judging a day at most (null: no budget); a span past it is `over_budget`. */
  maxCostUsdPerDay: number | null
  createdAt: number
  updatedAt: number
}

export type NewOnlineRule = Omit<OnlineRuleRow, 'id' | 'createdAt' | 'updatedAt'>

/** A GenAI span as received: what scoring it and showing it need, its attributes bounded. */
export interface OnlineSpanRow {
  traceId: string
  spanId: string
  parentSpanId: string | null
  name: string
  serviceName: string | null
  /** `gen_ai.operation.name`. */
  operation: string | null
  /** The response model, else the request model. */
  model: string | null
  inputText: string | null
  outputText: string | null
  systemInstructions: string | null
  usage: { input_tokens: number | null, output_tokens: number | null } | null
  /** OTLP's status code: 0 unset, 1 ok, 2 error. */
  statusCode: number
  startedAt: number
  endedAt: number
  /** The span's attributes, each value and the whole within the stored bounds (see core/online/span-row.ts). */
  attributes: Record<string, unknown>
  receivedAt: number
}

export interface OnlineDecisionRow {
  ruleId: string
  traceId: string
  spanId: string
  status: string
  /** Why: the filter's refusal, the sample, the budget, the failure. */
  reason: string | null
  score: number | null
  verdict: string | null
  runId: string | null
  costUsd: number | null
  decidedAt: number
  /** When its scoring was claimed (`claim`); null until then. */
  claimedAt: number | null
  updatedAt: number
}

/** A decision with the span it is about, for the feed. */
export interface OnlineDecisionView extends OnlineDecisionRow {
  span: Pick<OnlineSpanRow, 'name' | 'serviceName' | 'model' | 'inputText' | 'outputText' | 'startedAt'> | null
}

/** Where a decision stands in the feed: newest first, then by trace, span and rule (all descending). */
export type DecisionKey = Pick<OnlineDecisionRow, 'decidedAt' | 'traceId' | 'spanId' | 'ruleId'>

/** Which decision: a rule's, of a span. */
export type DecisionRef = Pick<OnlineDecisionRow, 'ruleId' | 'traceId' | 'spanId'>

/** A decision to claim and the run that will score it. */
export type DecisionClaim = Pick<OnlineDecisionRow, 'traceId' | 'spanId'> & { runId: string }

/** When a claim is taken (epoch ms), and the rule's limit of claims a minute (null: none). */
export interface ClaimAdmission {
  now: number
  maxPerMinute: number | null
}

export interface DecisionQuery {
  ruleId?: string
  status?: OnlineDecisionStatus
  /** The decisions after this one in the feed's order (the last of the page before), for the next page. */
  after?: DecisionKey
  limit: number
}

export interface OnlineRepository {
  listRules(): MaybePromise<OnlineRuleRow[]>
  getRule(id: string): MaybePromise<OnlineRuleRow | null>
  createRule(rule: NewOnlineRule): MaybePromise<OnlineRuleRow>
  /** The rule with its fields replaced; null when not found. */
  updateRule(id: string, rule: NewOnlineRule): MaybePromise<OnlineRuleRow | null>
  /** Deletes the rule with its decisions. */
  deleteRule(id: string): MaybePromise<boolean>
  /**
   * Stores the spans and the decisions in one commit, resolving once it is durable. A span or a
   * decision stored already (a span sent again) is kept as it was: the numbers say how many were new.
   */
  ingest(spans: readonly OnlineSpanRow[], decisions: readonly OnlineDecisionRow[]): Promise<{ spans: number, decisions: number }>
  getSpan(traceId: string, spanId: string): MaybePromise<OnlineSpanRow | null>
  /** The trace's spans stored, at most `limit`, the earliest first. */
  traceSpans(traceId: string, limit: number): MaybePromise<OnlineSpanRow[]>
  /** Decisions newest first (see DecisionKey), with their spans. */
  decisions(query: DecisionQuery): MaybePromise<OnlineDecisionView[]>
  /** The rule's queued decisions, the oldest first: those to score, and those whose scoring run was started (`runId`). */
  queued(ruleId: string, limit: number): MaybePromise<OnlineDecisionRow[]>
  /**
   * Takes queued decisions of the rule for scoring, each by its run, in order and in one commit:
   * each while it is still queued and no run has it, and, with `maxPerMinute`, while fewer than that
   * many of the rule's decisions were claimed in the minute before `now`. The count is the
   * database's, taken under a lock on the rule, so processes sharing the database share the limit.
   * Whether each was taken.
   */
  claim(ruleId: string, claims: readonly DecisionClaim[], admission: ClaimAdmission): Promise<boolean[]>
  /** Decisions taken since `since` (epoch ms), counted by rule and status. */
  decisionCounts(since: number): MaybePromise<Array<{ ruleId: string, status: string, count: number }>>
  /** US dollars the rule's scorings that ended since `since` (epoch ms) cost. */
  spentSince(ruleId: string, since: number): MaybePromise<number>
  /** Sets what became of a decision (scored, failed, over budget); false when there is no such decision. */
  updateDecision(key: DecisionRef, patch: Partial<Pick<OnlineDecisionRow, 'status' | 'reason' | 'score' | 'verdict' | 'runId' | 'costUsd'>>): MaybePromise<boolean>
}
