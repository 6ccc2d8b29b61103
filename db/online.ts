import { randomUUID } from 'node:crypto'
import { and, asc, desc, eq, getTableColumns, gte, inArray, isNull, sql, type SQL } from 'drizzle-orm'
import type { DecisionQuery, DecisionRef, NewOnlineRule, OnlineDecisionRow, OnlineDecisionView, OnlineRepository, OnlineRuleRow } from '../core/online-rows'

/**
 * Online scoring's repository, written once over both stores: the query builders of both drizzle
 * dialects take the same calls, and what differs is how a built query runs (`rows`) and how
 * statements share one commit (`write`: the SQLite store's group commit, a PostgreSQL transaction).
 */
export interface OnlineDialect {
  db: any
  tables: { onlineRules: any, onlineSpans: any, onlineDecisions: any }
  /** Runs a built select and answers its rows. */
  rows: (query: any) => Promise<any[]>
  /** Runs the statements `build` makes with the transaction it is given, all in one commit; the rows each changed. */
  write: (build: (tx: any) => any[]) => Promise<number[]>
  /**
   * A statement that holds the rule until the commit, so that claims counted against its limit
   * take turns (PostgreSQL); none where the writes take turns already (SQLite's one writer).
   */
  lockRule?: (tx: any, ruleId: string) => any
}

/** The characters of a span's input and output a feed entry carries: the whole texts are on the span. */
export const FEED_TEXT_CHARS = 2_000

const MINUTE_MS = 60_000

/** Rows per insert: under SQLite's 32,766 and PostgreSQL's 65,535 parameters a statement, at 16 columns a row. */
const ROWS_PER_INSERT = 500

function chunks<T>(rows: readonly T[]): T[][] {
  const out: T[][] = []
  for (let i = 0; i < rows.length; i += ROWS_PER_INSERT) out.push(rows.slice(i, i + ROWS_PER_INSERT))
  return out
}

export function onlineRepository(d: OnlineDialect): OnlineRepository {
  const { onlineRules: rules, onlineSpans: spans, onlineDecisions: decisions } = d.tables
  const ruleById = async (id: string): Promise<OnlineRuleRow | null> => (await d.rows(d.db.select().from(rules).where(eq(rules.id, id))))[0] ?? null
  return {
    listRules: () => d.rows(d.db.select().from(rules).orderBy(desc(rules.updatedAt), rules.id)),
    getRule: ruleById,
    async createRule(rule: NewOnlineRule) {
      const now = Date.now()
      const row: OnlineRuleRow = { id: randomUUID(), ...rule, createdAt: now, updatedAt: now }
      await d.write(tx => [tx.insert(rules).values(row)])
      return row
    },
    async updateRule(id, rule) {
      const [changed] = await d.write(tx => [tx.update(rules).set({ ...rule, updatedAt: Date.now() }).where(eq(rules.id, id))])
      return changed ? ruleById(id) : null
    },
    async deleteRule(id) {
      const [deleted] = await d.write(tx => [tx.delete(rules).where(eq(rules.id, id))])
      return (deleted ?? 0) > 0
    },
    async ingest(spanRows, decisionRows) {
      const spanChunks = chunks(spanRows)
      const changed = await d.write(tx => [
        ...spanChunks.map(part => tx.insert(spans).values(part).onConflictDoNothing()),
        ...chunks(decisionRows).map(part => tx.insert(decisions).values(part).onConflictDoNothing()),
      ])
      const sum = (list: number[]) => list.reduce((a, b) => a + b, 0)
      return { spans: sum(changed.slice(0, spanChunks.length)), decisions: sum(changed.slice(spanChunks.length)) }
    },
    async getSpan(traceId, spanId) {
      return (await d.rows(d.db.select().from(spans).where(and(eq(spans.traceId, traceId), eq(spans.spanId, spanId)))))[0] ?? null
    },
    traceSpans: (traceId, limit) => d.rows(d.db.select().from(spans).where(eq(spans.traceId, traceId))
      .orderBy(asc(spans.startedAt), asc(spans.spanId)).limit(limit)),
    decisions: query => listDecisions(d, query),
    queued: (ruleId, limit) => d.rows(d.db.select().from(decisions).where(and(eq(decisions.ruleId, ruleId), eq(decisions.status, 'queued')))
      .orderBy(asc(decisions.decidedAt), asc(decisions.traceId), asc(decisions.spanId)).limit(limit)),
    async claim(ruleId, claims, { now, maxPerMinute }) {
      if (!claims.length) return []
      // Counted by each update in turn: a claim of this commit counts for the next one.
      const recent = sql`(select count(*) from ${decisions} as recent where recent.rule_id = ${ruleId} and recent.claimed_at > ${now - MINUTE_MS})`
      const underLimit = maxPerMinute === null ? undefined : sql`${recent} < ${maxPerMinute}`
      const locking = maxPerMinute !== null && d.lockRule ? 1 : 0
      const changed = await d.write(tx => [
        ...(locking ? [d.lockRule!(tx, ruleId)] : []),
        ...claims.map(({ runId, ...key }) => tx.update(decisions).set({ runId, claimedAt: now, updatedAt: now })
          .where(and(whereKey(decisions, { ruleId, ...key }), eq(decisions.status, 'queued'), isNull(decisions.runId), underLimit))),
      ])
      return changed.slice(locking).map(rows => rows > 0)
    },
    async decisionCounts(since) {
      const rows = await d.rows(d.db.select({ ruleId: decisions.ruleId, status: decisions.status, count: sql<number | string>`count(*)` })
        .from(decisions).where(gte(decisions.decidedAt, since)).groupBy(decisions.ruleId, decisions.status))
      return rows.map(row => ({ ruleId: row.ruleId, status: row.status, count: Number(row.count) }))
    },
    async spentSince(ruleId, since) {
      const [row] = await d.rows(d.db.select({ spent: sql<number | string | null>`sum(${decisions.costUsd})` }).from(decisions)
        .where(and(eq(decisions.ruleId, ruleId), gte(decisions.updatedAt, since), inArray(decisions.status, ['scored', 'failed']))))
      return Number(row?.spent ?? 0)
    },
    async updateDecision(key, patch) {
      const [changed] = await d.write(tx => [tx.update(decisions).set({ ...patch, updatedAt: Date.now() }).where(whereKey(decisions, key))])
      return (changed ?? 0) > 0
    },
  }
}

const whereKey = (decisions: any, key: DecisionRef) =>
  and(eq(decisions.ruleId, key.ruleId), eq(decisions.traceId, key.traceId), eq(decisions.spanId, key.spanId))

async function listDecisions(d: OnlineDialect, query: DecisionQuery): Promise<OnlineDecisionView[]> {
  const { onlineSpans: spans, onlineDecisions: decisions } = d.tables
  const where: SQL[] = []
  if (query.ruleId !== undefined) where.push(eq(decisions.ruleId, query.ruleId))
  if (query.status !== undefined) where.push(eq(decisions.status, query.status))
  const after = query.after
  // A row value comparison (both dialects have it): the page goes on from the key, ties and all.
  if (after !== undefined) {
    where.push(sql`(${decisions.decidedAt}, ${decisions.traceId}, ${decisions.spanId}, ${decisions.ruleId}) < (${after.decidedAt}, ${after.traceId}, ${after.spanId}, ${after.ruleId})`)
  }
  const rows: Array<OnlineDecisionRow & { span: OnlineDecisionView['span'] }> = await d.rows(d.db.select({
    ...getTableColumns(decisions),
    span: {
      name: spans.name, serviceName: spans.serviceName, model: spans.model, startedAt: spans.startedAt,
      inputText: sql<string | null>`substr(${spans.inputText}, 1, ${FEED_TEXT_CHARS})`, outputText: sql<string | null>`substr(${spans.outputText}, 1, ${FEED_TEXT_CHARS})`,
    },
  }).from(decisions)
    .leftJoin(spans, and(eq(spans.traceId, decisions.traceId), eq(spans.spanId, decisions.spanId)))
    .where(where.length ? and(...where) : undefined)
    .orderBy(desc(decisions.decidedAt), desc(decisions.traceId), desc(decisions.spanId), desc(decisions.ruleId))
    .limit(query.limit))
  return rows
}
