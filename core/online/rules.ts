/** Online rules as the API shows and takes them (snake_case, as DESIGN.md names the fields), and the check of a saved evaluator. */
import { JudgeflowError } from '../../engine/errors'
import type { OnlineRule } from '../../engine/online/rule-schema'
import type { DecisionKey, NewOnlineRule, OnlineDecisionView, OnlineRuleRow } from '../online-rows'
import type { Store } from '../store'

export function ruleFields(rule: OnlineRule): NewOnlineRule {
  return {
    name: rule.name, enabled: rule.enabled, evaluator: rule.evaluator, filter: rule.filter,
    sampleRate: rule.sample_rate, maxPerMinute: rule.max_per_minute, maxCostUsdPerDay: rule.max_cost_usd_per_day,
  }
}

/** The span of time the rules list counts each rule's decisions over. */
export const COUNTED_HOURS = 24

/**
 * A rule as the API shows it, with its decisions of the last COUNTED_HOURS by status
 * (`decisions_24h`; empty where they were not counted, as in the answer to a change).
 */
export function presentRule(row: OnlineRuleRow, counted: Partial<Record<string, number>> = {}) {
  return {
    id: row.id, name: row.name, enabled: row.enabled, evaluator: row.evaluator, filter: row.filter,
    sample_rate: row.sampleRate, max_per_minute: row.maxPerMinute, max_cost_usd_per_day: row.maxCostUsdPerDay,
    created_at: new Date(row.createdAt).toISOString(), updated_at: new Date(row.updatedAt).toISOString(),
    decisions_24h: counted,
  }
}

/** Every rule, the last changed first, each with its decisions of the last COUNTED_HOURS by status. */
export async function listRulesCounted(store: Store, now = Date.now()) {
  const [rows, counts] = await Promise.all([store.online.listRules(), store.online.decisionCounts(now - COUNTED_HOURS * 3_600_000)])
  const byRule = new Map<string, Partial<Record<string, number>>>()
  for (const { ruleId, status, count } of counts) byRule.set(ruleId, { ...byRule.get(ruleId), [status]: count })
  return rows.map(row => presentRule(row, byRule.get(row.id)))
}

export function presentDecision(row: OnlineDecisionView) {
  return {
    rule_id: row.ruleId, trace_id: row.traceId, span_id: row.spanId, status: row.status, reason: row.reason,
    score: row.score, verdict: row.verdict, run_id: row.runId, cost_usd: row.costUsd,
    decided_at: new Date(row.decidedAt).toISOString(), updated_at: new Date(row.updatedAt).toISOString(),
    span: row.span && {
      name: row.span.name, service_name: row.span.serviceName, model: row.span.model, input: row.span.inputText, output: row.span.outputText,
      started_at: new Date(row.span.startedAt).toISOString(),
    },
  }
}

/** Refuses a rule whose saved evaluator is not there: the workflow, or an evaluator step of that id in its current version. */
export async function checkRuleEvaluator(store: Store, rule: OnlineRule): Promise<void> {
  if (!('workflow_id' in rule.evaluator)) return
  const { workflow_id: workflowId, step_id: stepId } = rule.evaluator
  const workflow = await store.workflows.get(workflowId)
  if (!workflow) throw new JudgeflowError('INVALID_INPUT', `evaluator.workflow_id: no workflow with id "${workflowId}"`)
  const nodes = (workflow.definition.nodes ?? []) as Array<{ id?: unknown, type?: unknown }>
  if (!nodes.some(node => node.id === stepId && node.type === 'evaluator')) {
    throw new JudgeflowError('INVALID_INPUT', `evaluator.step_id: workflow "${workflow.name}" has no evaluator step "${stepId}"`)
  }
}

const CURSOR = /^(\d{1,15}):([0-9a-f]{32}):([0-9a-f]{16}):([\w-]{1,200})$/

/** The feed's page cursor: the last decision's key, as text. */
export function decisionCursor(row: DecisionKey): string {
  return `${row.decidedAt}:${row.traceId}:${row.spanId}:${row.ruleId}`
}

export function readDecisionCursor(text: string): DecisionKey | null {
  const match = CURSOR.exec(text)
  return match ? { decidedAt: Number(match[1]), traceId: match[2]!, spanId: match[3]!, ruleId: match[4]! } : null
}
