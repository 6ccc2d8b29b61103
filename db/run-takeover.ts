import { JudgeflowError } from '../engine'
import type { Db } from './client'
import { claimRun, getRunLease, lastCommittedStepAt, listOtherHolders, listUnfinishedLeasesOf, recordResume, UNFINISHED_STATUSES, type Holder, type RunLease } from './repositories/run-leases'
import { getRun } from './repositories/runs'
import type { ClaimOneOptions, Takeover, TakeoverOptions } from '../core/rows'
export type { Takeover, ResumeProgress, ResumeDecision, TakeoverOptions, ClaimOneOptions } from '../core/rows'

/**
 * Claims the unfinished runs no live process holds — their lease expired, or their holder is
 * gone — oldest first, each in its own transaction. Every resume of a started run is counted
 * before it executes, so a resume that crashes or hangs the process is counted too; a run
 * `options.resume` gives up comes back with `giveUp` instead.
 */
export function claimOrphanedRuns(db: Db, options: TakeoverOptions): Takeover[] {
  const taken: Takeover[] = []
  const freeHolders = listOtherHolders(db, options.owner).filter(holder => options.isFree(holder))
  for (const lease of listUnfinishedLeasesOf(db, freeHolders.map(holder => holder.leaseOwner!))) {
    if (options.skip(lease.id) || !options.isFree(lease)) continue
    const takeover = takeOverRun(db, lease.id, options, goneOwner(lease, options.now))
    if (takeover) taken.push(takeover)
  }
  return taken
}

/**
 * Claims one run for a worker that took its job: a run still queued under the name of the process
 * that queued it, or one no live process holds (then counted as a resume). Null when it has ended
 * or a live process holds it.
 */
export function claimQueuedRun(db: Db, runId: string, options: ClaimOneOptions): Takeover | null {
  const lease = getRunLease(db, runId)
  if (!lease || !UNFINISHED_STATUSES.includes(lease.status)) return null
  const queuedBy = lease.status === 'queued' && options.from !== undefined && lease.leaseOwner === options.from
  if (!queuedBy && !options.isFree(lease)) return null
  return takeOverRun(db, runId, options, queuedBy ? options.from! : goneOwner(lease, options.now))
}

function takeOverRun(db: Db, runId: string, options: Omit<TakeoverOptions, 'skip'>, gone: string | null): Takeover | null {
  return db.transaction((): Takeover | null => {
    if (!claimRun(db, runId, options.lease, options.now, gone)) return null
    const run = getRun(db, runId)!
    if (run.status === 'queued') return { run }
    const lastStepAt = lastCommittedStepAt(db, run.id)
    const decision = options.resume(run, lastStepAt)
    if ('giveUp' in decision) return { run, giveUp: decision.giveUp }
    recordResume(db, run.id, decision.resumesWithoutProgress, lastStepAt)
    return { run }
  })
}

/**
 * Claims an unfinished run that no live process holds, for a person to mark it interrupted;
 * returns the reason to record. Throws NOT_CANCELLABLE, saying why, when it cannot.
 */
export function claimOrphanToInterrupt(db: Db, runId: string, options: Omit<TakeoverOptions, 'resume' | 'skip'>): string {
  const run = getRunLease(db, runId)
  checkCancellable(runId, run)
  if (!options.isFree(run) || !claimRun(db, runId, options.lease, options.now, goneOwner(run, options.now))) throw heldElsewhere(run, options.now)
  return interruptReason(run)
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
  return holder.leaseExpiresAt !== null && holder.leaseExpiresAt > now ? holder.leaseOwner : null
}
