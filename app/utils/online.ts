/**
 * The Online page's reading of the API (DESIGN.md, "Production traces: online scoring"): a refusal's
 * problems by the field they name, the rule form's body, and the scores as series over time.
 */
import type { presentDecision, presentRule } from '~~/core/online/rules'

/** A rule and a decision as the API answers them (its presenters, whose times are ISO text already). */
export type OnlineRuleView = ReturnType<typeof presentRule>
export type OnlineDecision = ReturnType<typeof presentDecision>
export const DECISION_STATUSES = ['filtered', 'sampled_out', 'queued', 'scored', 'failed', 'over_budget'] as const
export type DecisionStatus = typeof DECISION_STATUSES[number]

/** The rule form's fields, as typed (numbers as text, so an empty field is "no limit"). */
export interface RuleDraft {
  name: string
  workflowId: string
  stepId: string
  sampleRate: string
  maxPerMinute: string
  maxCostUsdPerDay: string
  serviceName: string
  model: string
  spanName: string
  enabled: boolean
}

export function emptyDraft(): RuleDraft {
  return { name: '', workflowId: '', stepId: '', sampleRate: '0.1', maxPerMinute: '60', maxCostUsdPerDay: '', serviceName: '', model: '', spanName: '', enabled: true }
}

/** A rule as the form edits it; a rule with an evaluator config (made through the API) keeps it. */
export function draftOf(rule: OnlineRuleView): RuleDraft {
  const saved = 'workflow_id' in rule.evaluator ? rule.evaluator : null
  return {
    name: rule.name, workflowId: saved?.workflow_id ?? '', stepId: saved?.step_id ?? '', enabled: rule.enabled,
    sampleRate: String(rule.sample_rate), maxPerMinute: rule.max_per_minute === null ? '' : String(rule.max_per_minute),
    maxCostUsdPerDay: rule.max_cost_usd_per_day === null ? '' : String(rule.max_cost_usd_per_day),
    serviceName: rule.filter.service_name ?? '', model: rule.filter.model ?? '', spanName: rule.filter.span_name ?? '',
  }
}

/** Text as the number the API takes: empty is null (no limit), anything else a number, or the text itself for the API to refuse by name. */
const numberOrNull = (text: string): number | null | string => (text.trim() === '' ? null : Number.isFinite(Number(text)) ? Number(text) : text)

/** The body of POST / PUT /api/online/rules; `keep` is the edited rule, whose evaluator config and filter attributes stay. */
export function ruleBody(draft: RuleDraft, keep?: OnlineRuleView) {
  const filter: Record<string, unknown> = { ...(keep?.filter.attributes ? { attributes: keep.filter.attributes } : {}) }
  if (draft.serviceName.trim()) filter.service_name = draft.serviceName.trim()
  if (draft.model.trim()) filter.model = draft.model.trim()
  if (draft.spanName.trim()) filter.span_name = draft.spanName.trim()
  const evaluator = keep && 'config' in keep.evaluator && !draft.workflowId
    ? keep.evaluator
    : { workflow_id: draft.workflowId, step_id: draft.stepId }
  return {
    name: draft.name, enabled: draft.enabled, evaluator, filter,
    sample_rate: draft.sampleRate.trim() === '' ? undefined : numberOrNull(draft.sampleRate),
    max_per_minute: numberOrNull(draft.maxPerMinute), max_cost_usd_per_day: numberOrNull(draft.maxCostUsdPerDay),
  }
}

/**
 * A refusal's problems by the field they name: a 400's `data.data.problems` (`sample_rate`, `evaluator.step_id`),
 * or a message led by a field's path; what names no field is under `''`.
 */
export function problemsByField(error: unknown): Record<string, string> {
  // $fetch's error carries the answer as `data`; the answer carries the problems as its own `data`.
  const body = (error as { data?: { message?: string, data?: { problems?: Array<{ path: string, message: string }> } } }).data
  const problems = body?.data?.problems ?? []
  const out: Record<string, string> = {}
  for (const p of problems) out[p.path] = out[p.path] ? `${out[p.path]}; ${p.message}` : p.message
  if (problems.length) return out
  const message = body?.message ?? (error as Error).message ?? String(error)
  const led = /^([a-z_]+(?:\.[a-z_]+)*): (.+)$/s.exec(message)
  return led ? { [led[1]!]: led[2]! } : { '': message }
}

/** The evaluator a rule runs, in words. */
export function evaluatorText(rule: OnlineRuleView, workflowName: (id: string) => string | undefined): string {
  if ('workflow_id' in rule.evaluator) return `${workflowName(rule.evaluator.workflow_id) ?? rule.evaluator.workflow_id} › ${rule.evaluator.step_id}`
  const config = rule.evaluator.config as { evaluation_type?: string, model?: string }
  return `evaluator config (${[config.evaluation_type, config.model].filter(Boolean).join(', ')})`
}

/** The filter in words: each condition, or that every GenAI span is taken. */
export function filterText(filter: OnlineRuleView['filter']): string {
  const parts = [
    filter.service_name && `service ${filter.service_name}`, filter.model && `model ${filter.model}`, filter.span_name && `span ${filter.span_name}`,
    ...Object.entries(filter.attributes ?? {}).map(([k, v]) => `${k} = ${String(v)}`),
  ].filter(Boolean)
  return parts.length ? parts.join(', ') : 'every GenAI span'
}

export interface ScorePoint { label: string, passRate: number | null, meanScore: number | null, count: number }

/**
 * The scores by hour when they fall within two days, else by day (UTC), the earliest first: each
 * bucket's share passed and mean score.
 */
export function scoreSeries(scores: readonly Pick<OnlineDecision, 'score' | 'verdict' | 'updated_at'>[]): ScorePoint[] {
  const times = scores.map(s => Date.parse(s.updated_at))
  const hourly = times.length > 0 && Math.max(...times) - Math.min(...times) < 2 * 86_400_000
  const buckets = new Map<string, { pass: number, sum: number, scored: number, count: number }>()
  scores.forEach((s, i) => {
    const iso = new Date(times[i]!).toISOString()
    const key = hourly ? `${iso.slice(0, 13)}:00` : iso.slice(0, 10)
    const b = buckets.get(key) ?? { pass: 0, sum: 0, scored: 0, count: 0 }
    b.count++
    if (s.verdict === 'pass') b.pass++
    if (s.score !== null) { b.sum += s.score; b.scored++ }
    buckets.set(key, b)
  })
  return [...buckets.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([key, b]) => ({
    label: hourly ? key.replace('T', ' ') : key, count: b.count,
    passRate: b.count ? b.pass / b.count : null, meanScore: b.scored ? b.sum / b.scored : null,
  }))
}

/** US dollars spent each day (UTC) on the scorings in the list, the earliest first. */
export function costPerDay(decisions: readonly Pick<OnlineDecision, 'cost_usd' | 'updated_at'>[]): Array<{ day: string, usd: number }> {
  const days = new Map<string, number>()
  for (const d of decisions) {
    if (d.cost_usd === null) continue
    const day = d.updated_at.slice(0, 10)
    days.set(day, (days.get(day) ?? 0) + d.cost_usd)
  }
  return [...days.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([day, usd]) => ({ day, usd }))
}
