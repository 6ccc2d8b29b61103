import { sql, type SQL } from 'drizzle-orm'
import { UNFINISHED_STATUSES } from './repositories/run-leases'
import { openRoundStatuses } from '../engine/experiments/round-statuses'
import type { RetentionPolicy, PruneResult } from '../core/rows'
import { parseOwnJson } from '../engine/text/own-json'
export type { RetentionPolicy, PruneResult } from '../core/rows'

/** How the prune reaches one database: read rows, and run statements in one transaction (the rows each changed). */
export interface RetentionDb {
  rows<T>(query: SQL): Promise<T[]>
  transaction(statements: SQL[]): Promise<number[]>
}

export const DEFAULT_PRUNE_BATCH = 500

const list = (values: readonly string[]) => sql.join(values.map(v => sql`${v}`), sql`, `)
const unfinished = list(UNFINISHED_STATUSES)

/**
 * Deletes what the policy lets go, batch by batch (the same SQL on SQLite and PostgreSQL): finished
 * runs past the age or beyond the per-workflow count, never one a dataset run still running or an
 * experiment round still open needs; lease rows of gone processes; the least recently used cache
 * entries over the bound; online spans past the age, with their decisions; review leases that ran
 * out (queues, their items and labels stay until deleted). A finished dataset run keeps its cases' results: their run links then 404.
 */
export async function pruneStore(db: RetentionDb, policy: RetentionPolicy): Promise<PruneResult> {
  const batch = policy.batchSize ?? DEFAULT_PRUNE_BATCH
  const result: PruneResult = { runs: 0, leaseOwners: 0, cacheEntries: 0, onlineSpans: 0, reviewLeases: 0 }
  if (policy.maxAgeMs !== undefined || policy.keepPerWorkflow !== undefined) {
    const kept = await runsInOpenRounds(db)
    // One statement per batch: the runs it picks go with their steps and events (the foreign keys cascade).
    for (;;) {
      const [deleted = 0] = await db.transaction([sql`delete from runs where id in (${expiredRuns(policy, kept, batch)})`])
      result.runs += deleted
      if (deleted < batch) break
      await breather()
    }
  }
  const [leases] = await db.transaction([sql`delete from lease_owners where expires_at <= ${policy.now} and not exists
    (select 1 from runs where runs.lease_owner = lease_owners.owner and runs.status in (${unfinished}))`])
  result.leaseOwners = leases ?? 0
  // A lease that ran out holds nothing: the item is free already. Skipped items keep their mark (leased_until 0, skipped).
  const [reviewLeases] = await db.transaction([sql`delete from review_leases where not skipped and leased_until < ${policy.now}`])
  result.reviewLeases = reviewLeases ?? 0
  if (policy.maxAgeMs !== undefined) result.onlineSpans = await pruneOnlineSpans(db, policy.now - policy.maxAgeMs, batch)
  if (policy.cacheMaxEntries !== undefined) {
    const [count] = await db.rows<{ n: number | string }>(sql`select count(*) as n from llm_cache`)
    let excess = Number(count?.n ?? 0) - policy.cacheMaxEntries
    while (excess > 0) {
      const take = Math.min(excess, batch)
      const [deleted] = await db.transaction([sql`delete from llm_cache where key in
        (select key from llm_cache order by last_used_at asc, key asc limit ${take})`])
      if (!deleted) break
      result.cacheEntries += deleted
      excess -= deleted
      if (excess > 0) await breather()
    }
  }
  return result
}

/** Online spans received before `before`, batch by batch, with their decisions (the foreign key cascades); a span a rule still has queued stays. */
async function pruneOnlineSpans(db: RetentionDb, before: number, batch: number): Promise<number> {
  let total = 0
  for (;;) {
    const [deleted = 0] = await db.transaction([sql`delete from online_spans where (trace_id, span_id) in (
      select s.trace_id, s.span_id from online_spans s where s.received_at < ${before} and not exists (
        select 1 from online_decisions d where d.trace_id = s.trace_id and d.span_id = s.span_id and d.status = 'queued')
      order by s.received_at asc limit ${batch})`])
    total += deleted
    if (deleted < batch) return total
    await breather()
  }
}

/** The oldest finished runs the policy lets go, at most `limit`, skipping those an open dataset run or round needs. */
function expiredRuns(policy: RetentionPolicy, kept: string[], limit: number): SQL {
  const tooOld = policy.maxAgeMs === undefined ? sql`0 = 1` : sql`coalesce(finished_at, created_at) < ${policy.now - policy.maxAgeMs}`
  const beyondCount = policy.keepPerWorkflow === undefined ? sql`0 = 1` : sql`position > ${policy.keepPerWorkflow}`
  const notInRounds = kept.length === 0 ? sql`` : sql`and id not in (${list(kept)})`
  // Numbering every workflow's runs reads them all: only when a count is kept.
  const position = policy.keepPerWorkflow === undefined ? sql`0` : sql`row_number() over (partition by workflow_id order by created_at desc, id desc)`
  return sql`select id from (select id, status, created_at, finished_at, ${position} as position from runs) ranked
    where status not in (${unfinished}) and (${tooOld} or ${beyondCount}) ${notInRounds}
      and id not in (select c.run_id from dataset_run_cases c join dataset_runs d on d.id = c.dataset_run_id
        where d.status = 'running' and c.run_id is not null)
    order by created_at asc limit ${limit}`
}

/** The runs of experiment rounds still running or being judged (a JSON column: text on SQLite, parsed on PostgreSQL). */
async function runsInOpenRounds(db: RetentionDb): Promise<string[]> {
  const rows = await db.rows<{ runs: unknown }>(sql`select runs from experiment_rounds where status in (${list(openRoundStatuses)})`)
  return rows.flatMap(({ runs }) => {
    const entries = (typeof runs === 'string' ? parseOwnJson(runs) : runs) as Array<{ run_id?: unknown }>
    return entries.flatMap(e => typeof e.run_id === 'string' ? [e.run_id] : [])
  })
}

/** One prune at a time per store: two at once would both count the cache's excess and evict it twice. */
export function oneAtATime<A extends unknown[], T>(prune: (...args: A) => Promise<T>): (...args: A) => Promise<T> {
  let last: Promise<unknown> = Promise.resolve()
  return (...args) => {
    const next = last.then(() => prune(...args), () => prune(...args))
    last = next.catch(() => {})
    return next
  }
}

const breather = () => new Promise<void>(resolve => setImmediate(resolve))
