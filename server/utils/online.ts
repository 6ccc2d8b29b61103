import type { H3Event } from 'h3'
import { z } from 'zod'
import { ONLINE_DECISION_STATUSES, type OnlineDecisionStatus } from '~~/core/online-rows'
import { decisionCursor, presentDecision, readDecisionCursor } from '~~/core/online/rules'
import { evaluationEvents } from '~~/engine/online/evaluation-events'
import { useJudgeflow } from './context'
import { readQueryWith } from './http'

/** Decisions a page carries unless told, and at most. */
const DEFAULT_PAGE = 50
const MAX_PAGE = 500

const feedQuery = z.object({
  rule: z.string().min(1).max(200).optional(),
  status: z.enum(ONLINE_DECISION_STATUSES, { error: `must be one of ${ONLINE_DECISION_STATUSES.join(', ')}` }).optional(),
  /** The `next` of the page before. */
  after: z.string().transform((text, ctx) => readDecisionCursor(text) ?? (ctx.addIssue({ code: 'custom', message: 'is not a page cursor (give the `next` of the page before)' }), z.NEVER)).optional(),
  limit: z.coerce.number().int('must be a whole number').min(1, 'must be at least 1').max(MAX_PAGE, `must be at most ${MAX_PAGE}`).default(DEFAULT_PAGE),
}).strict()

/** One page of the decisions feed, newest first; `status` fixes the status (the scores are the `scored` decisions). */
export async function decisionsPage(event: H3Event, status?: OnlineDecisionStatus) {
  const { rows, next } = await decisionRows(event, status)
  return { decisions: rows.map(presentDecision), next }
}

/** One page of the scores as `gen_ai.evaluation.result` events: an OTLP/JSON logs export request, with the page's `next`. */
export async function evaluationEventsPage(event: H3Event) {
  const { rows, next } = await decisionRows(event, 'scored')
  const names = new Map((await useJudgeflow().store.online.listRules()).map(rule => [rule.id, rule.name]))
  const scores = rows.filter(row => row.score !== null).map(row => ({
    traceId: row.traceId, spanId: row.spanId, name: names.get(row.ruleId) ?? row.ruleId,
    score: row.score!, label: row.verdict, explanation: row.reason, at: row.updatedAt,
  }))
  return { ...evaluationEvents(scores), next }
}

async function decisionRows(event: H3Event, status?: OnlineDecisionStatus) {
  const query = await readQueryWith(event, feedQuery)
  const rows = await useJudgeflow().store.online.decisions({ ruleId: query.rule, status: status ?? query.status, after: query.after, limit: query.limit })
  return { rows, next: rows.length === query.limit ? decisionCursor(rows.at(-1)!) : null }
}
