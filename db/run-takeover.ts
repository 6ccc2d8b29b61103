import { and, asc, eq, exists, inArray, isNull, max, or, sql } from 'drizzle-orm'
import { JudgeflowError } from '../engine'
import { committedStepStatuses, leaseLetsGo, type Holder, type Lease, type RunLease, type RunRow } from '../core/rows'
import type { LeaseRepository } from '../core/store'
import { UNFINISHED_STATUSES } from './repositories/run-leases'
import { inTransaction, rowsOf, runOf, type Perform, type Program } from './statement-program'
import type { ClaimOneOptions, Takeover, TakeoverOptions } from '../core/rows'
export type { Takeover, ResumeProgress, ResumeDecision, TakeoverOptions, ClaimOneOptions } from '../core/rows'

/**
 * The leases' tables of one dialect, and what differs in how the two read a run to claim it. The
 * claims themselves are written once below (see statement-program.ts), the same on both stores.
 */
export interface LeaseTables {
  runs: any
  stepRuns: any
  leaseOwners: any
  /**
   * The run's row as a claim reads it. PostgreSQL locks it (`FOR UPDATE SKIP LOCKED`: two processes
   * never wait on each other for an orphan); on SQLite the claim's transaction holds the write lock already.
   */
  lockRun: (query: any) => any
  /**
   * The holder's lease row as a claim reads it. PostgreSQL takes a share lock, so a holder renewing
   * its lease at that moment either keeps the run or, renewing just after, finds the run taken
   * when it looks for its lost runs.
   */
  lockHolder: (query: any) => any
  /** At most this many orphans one pass of `claimOrphans` claims, the oldest first; all of them when undefined. */
  orphansPerPass?: number
}

type Claims = Pick<LeaseRepository, 'release' | 'get' | 'claimOrphans' | 'claimQueued' | 'claimToInterrupt'>

/**
 * The lease methods over one dialect: `perform` runs a program on the store's handle
 * (`runOnSqlite`, or `runOnPostgres` once the store is ready).
 */
export function leaseClaims(t: LeaseTables, perform: Perform): Claims {
  return {
    release: (owner, now) => perform(function* (db) {
      yield runOf(db.update(t.leaseOwners).set({ expiresAt: now }).where(eq(t.leaseOwners.owner, owner)))
    }),
    get: runId => perform(db => leaseOf(t, db, runId)),
    claimOrphans: options => perform(db => claimOrphans(t, db, options)),
    claimQueued: (runId, options) => perform(db => claimQueued(t, db, runId, options)),
    claimToInterrupt: (runId, options) => perform(db => claimToInterrupt(t, db, runId, options)),
  }
}

const leaseColumns = (t: LeaseTables) => ({ id: t.runs.id, status: t.runs.status, leaseOwner: t.runs.leaseOwner, leaseExpiresAt: t.leaseOwners.expiresAt })

function* leaseOf(t: LeaseTables, db: any, runId: string): Program<RunLease | null> {
  const [row] = yield rowsOf(db.select(leaseColumns(t)).from(t.runs).leftJoin(t.leaseOwners, eq(t.leaseOwners.owner, t.runs.leaseOwner))
    .where(eq(t.runs.id, runId)))
  return row ?? null
}

/**
 * Claims the unfinished runs no live process holds — their lease expired, or their holder is
 * gone — oldest first, each in its own transaction. The holders are read first (one index probe per
 * process that holds unfinished runs), then only the runs of those free and of none: the runs of
 * live processes are not read at all. Every resume of a started run is counted before it executes,
 * so a resume that crashes or hangs the process is counted too; a run `options.resume` gives up
 * comes back with `giveUp` instead.
 */
function* claimOrphans(t: LeaseTables, db: any, options: TakeoverOptions): Program<Takeover[]> {
  const { runs, leaseOwners } = t
  const holding = exists(db.select({ one: sql`1` }).from(runs).where(and(eq(runs.leaseOwner, leaseOwners.owner), inArray(runs.status, UNFINISHED_STATUSES))))
  const holders: Holder[] = yield rowsOf(db.select({ leaseOwner: leaseOwners.owner, leaseExpiresAt: leaseOwners.expiresAt }).from(leaseOwners)
    .where(and(sql`${leaseOwners.owner} <> ${options.owner}`, holding)))
  const free = holders.filter(holder => options.isFree(holder)).map(holder => holder.leaseOwner!)
  const oldest = db.select(leaseColumns(t)).from(runs).leftJoin(leaseOwners, eq(leaseOwners.owner, runs.leaseOwner))
    .where(and(free.length ? or(isNull(runs.leaseOwner), inArray(runs.leaseOwner, free)) : isNull(runs.leaseOwner), inArray(runs.status, UNFINISHED_STATUSES)))
    .orderBy(asc(runs.createdAt))
  const candidates: RunLease[] = yield rowsOf(t.orphansPerPass === undefined ? oldest : oldest.limit(t.orphansPerPass))
  const taken: Takeover[] = []
  for (const lease of candidates) {
    if (options.skip(lease.id) || !options.isFree(lease)) continue
    const takeover: Takeover | null = yield inTransaction(tx => takeOver(t, tx, lease.id, options, goneOwner(lease, options.now)))
    if (takeover) taken.push(takeover)
  }
  return taken
}

/**
 * Claims one run for a worker that took its job: a run still queued under the name of the process
 * that queued it, or one no live process holds (then counted as a resume). Null when it has ended
 * or a live process holds it.
 */
function* claimQueued(t: LeaseTables, db: any, runId: string, options: ClaimOneOptions): Program<Takeover | null> {
  const lease = yield* leaseOf(t, db, runId)
  if (!lease || !UNFINISHED_STATUSES.includes(lease.status)) return null
  const queuedBy = lease.status === 'queued' && options.from !== undefined && lease.leaseOwner === options.from
  if (!queuedBy && !options.isFree(lease)) return null
  return (yield inTransaction(tx => takeOver(t, tx, runId, options, queuedBy ? options.from! : goneOwner(lease, options.now)))) as Takeover | null
}

/**
 * Claims an unfinished run that no live process holds, for a person to mark it interrupted;
 * returns the reason to record. Throws NOT_CANCELLABLE, saying why, when it cannot.
 */
function* claimToInterrupt(t: LeaseTables, db: any, runId: string, options: Omit<TakeoverOptions, 'resume' | 'skip'>): Program<string> {
  const run = yield* leaseOf(t, db, runId)
  checkCancellable(runId, run)
  const claimed = options.isFree(run) && (yield inTransaction(tx => claimRun(t, tx, runId, options.lease, options.now, goneOwner(run, options.now))))
  if (!claimed) throw heldElsewhere(run, options.now)
  return interruptReason(run)
}

/**
 * The claim-and-resume transaction: takes the run (`claimRun`), and when it had started, asks
 * `options.resume` whether it resumes, from its resumes so far and its last committed step,
 * counting the resume in the same transaction.
 */
function* takeOver(t: LeaseTables, tx: any, runId: string, options: Omit<TakeoverOptions, 'skip'>, gone: string | null): Program<Takeover | null> {
  const run = yield* claimRun(t, tx, runId, options.lease, options.now, gone)
  if (!run) return null
  if (run.status === 'queued') return { run }
  const [last] = yield rowsOf(tx.select({ at: max(t.stepRuns.finishedAt) }).from(t.stepRuns)
    .where(and(eq(t.stepRuns.runId, run.id), inArray(t.stepRuns.status, committedStepStatuses))))
  const lastStepAt = last?.at === null || last?.at === undefined ? null : Number(last.at)
  const decision = options.resume(run, lastStepAt)
  if ('giveUp' in decision) return { run, giveUp: decision.giveUp }
  const { resumesWithoutProgress } = decision
  yield runOf(tx.update(t.runs).set({ resumesWithoutProgress, lastStepAtResume: lastStepAt }).where(eq(t.runs.id, run.id)))
  return { run: { ...run, resumesWithoutProgress, lastStepAtResume: lastStepAt } }
}

/**
 * Takes an unfinished run for `lease.owner` when its holder lets it go at `now` (`leaseLetsGo`:
 * the holder's lease as read here, in the claim's transaction, or `gone`, a holder known to be
 * gone). A holder that renewed its lease since it was judged free keeps the run. The run's row, or null.
 */
export function* claimRun(t: LeaseTables, tx: any, id: string, lease: Lease, now: number, gone: string | null): Program<RunRow | null> {
  const [run]: RunRow[] = yield rowsOf(t.lockRun(tx.select().from(t.runs).where(and(eq(t.runs.id, id), inArray(t.runs.status, UNFINISHED_STATUSES)))))
  if (!run) return null
  // No lease row to read for a run no process holds, or held by a process known to be gone.
  const [holder]: Array<{ expiresAt: number }> = run.leaseOwner && run.leaseOwner !== gone
    ? yield rowsOf(t.lockHolder(tx.select({ expiresAt: t.leaseOwners.expiresAt }).from(t.leaseOwners).where(eq(t.leaseOwners.owner, run.leaseOwner))))
    : []
  if (!leaseLetsGo({ leaseOwner: run.leaseOwner, leaseExpiresAt: holder?.expiresAt ?? null }, now, owner => owner === gone)) return null
  yield runOf(tx.update(t.runs).set({ leaseOwner: lease.owner }).where(eq(t.runs.id, id)))
  return { ...run, leaseOwner: lease.owner }
}

/** Throws NOT_CANCELLABLE unless the run exists and is unfinished. */
export function checkCancellable(runId: string, run: RunLease | null): asserts run is RunLease {
  if (!run) throw new JudgeflowError('NOT_CANCELLABLE', `run "${runId}" does not exist`)
  if (!UNFINISHED_STATUSES.includes(run.status)) throw new JudgeflowError('NOT_CANCELLABLE', `run "${runId}" is ${run.status} and cannot be cancelled`)
}

/** A person's cancel of a run a live process holds. */
export function heldElsewhere(run: RunLease, now: number): JudgeflowError {
  const until = new Date(run.leaseExpiresAt ?? now).toISOString()
  return new JudgeflowError('NOT_CANCELLABLE', `run "${run.id}" is being executed by another judgeflow process (its lease holds until ${until}): cancel it through that server, or wait until the lease expires; then it is resumed, or can be marked interrupted here`)
}

export function interruptReason(run: RunLease): string {
  const holder = run.leaseOwner ? `its process (${run.leaseOwner.split(':').slice(0, 2).join(':')}) is gone or stopped renewing its lease` : 'no process had taken it on'
  return `the run was marked interrupted by a person: ${holder}`
}

/** The holder of a run judged free while its lease still holds: a process known to be gone. */
export function goneOwner(holder: Holder, now: number): string | null {
  return leaseLetsGo(holder, now, () => false) ? null : holder.leaseOwner
}
