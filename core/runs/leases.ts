import { randomUUID } from 'node:crypto'
import { hostname } from 'node:os'
import { isUnfinishedStatus, leaseLetsGo, type Holder, type ResumeDecision, type ResumeProgress } from '../rows'
import type { Lease, LeaseRepository } from '../store'

export const DEFAULT_LEASE_MS = 15_000
export const DEFAULT_MAX_RESUMES = 2

/** A lease holder's name: this host and process, and a token new at every process start. */
export function newLeaseOwner(): string {
  return `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`
}

/**
 * True only when the holder is certainly gone: a process of this host whose pid no longer exists,
 * or an earlier process that had this process's pid. A pid that looks alive proves nothing (a
 * zombie, a reused pid), and another host's process cannot be checked: then only the expiry counts.
 */
export function holderIsGone(owner: string, self: string): boolean {
  const [host, pid] = owner.split(':')
  if (owner === self || host !== hostname() || !Number.isInteger(Number(pid))) return false
  if (Number(pid) === process.pid) return true
  try {
    process.kill(Number(pid), 0)
    return false
  }
  catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH'
  }
}

/** Whether a process other than `self` may take the run over at `now`. */
export function leaseIsFree(run: Holder, self: string, now: number): boolean {
  return run.leaseOwner !== self && leaseLetsGo(run, now, owner => holderIsGone(owner, self))
}

/**
 * Whether a started run taken over resumes: a run resumed `maxResumes` times in a row without
 * committing a new step (the process may have crashed or hung while resuming it) is given up;
 * otherwise this resume is counted — the first of a new row when a step was committed since the
 * last one. Counted before the run executes, so a resume that crashes the process counts too.
 */
export function resumeDecision(run: ResumeProgress, lastStepAt: number | null, maxResumes: number): ResumeDecision {
  const progressed = lastStepAt !== run.lastStepAtResume
  if (!progressed && run.resumesWithoutProgress >= maxResumes) return { giveUp: giveUpReason(run.resumesWithoutProgress, maxResumes) }
  return { resumesWithoutProgress: progressed ? 1 : run.resumesWithoutProgress + 1 }
}

/** Why a run resumed `resumes` times in a row without progress is not resumed again. */
function giveUpReason(resumes: number, maxResumes: number): string {
  return `the run was resumed ${resumes} times after a restart without committing a new step (the process may have crashed or hung while resuming it), so it is not resumed again (JUDGEFLOW_RUN_MAX_RESUMES, ${maxResumes}). Start it again once the cause is fixed.`
}

export interface LeaseKeeperOptions {
  owner: string
  /** How long a lease holds without renewal; the heartbeat renews it every third of that. */
  leaseMs: number
  now: () => number
  /** The runs this process holds (queued or executing). */
  held: () => string[]
  /** A held run that another process has taken over: this one must stop writing to it. */
  lost: (runId: string) => void
  /** Called at every heartbeat after the renewal (for example, to take over orphaned runs); see also `afterEachBeat`. */
  onBeat?: () => unknown
}

/**
 * Keeps this process's lease — one row, one write per heartbeat however many runs it holds —
 * renewed every third of the lease while there is something to keep. Other processes may take
 * this process's runs only once that lease has expired, so after a renewal that came too late
 * (this process stalled past the expiry), the held runs another process took over are reported lost.
 */
export class LeaseKeeper {
  private timer: NodeJS.Timeout | undefined
  private stopped = false
  /** Until when the lease surely holds: the expiry of the last renewal this keeper wrote. */
  private holdsUntil = 0
  private renewing: Promise<void> | undefined
  private beating: Promise<void> | undefined
  /** Whether the heartbeat goes on with no run held (`watch`). */
  private watching = false
  private onBeat: (() => unknown) | undefined

  constructor(private readonly leases: LeaseRepository, private readonly options: LeaseKeeperOptions) {
    this.onBeat = options.onBeat
  }

  /** Calls `listener` at every heartbeat after the renewal, in place of `options.onBeat`. */
  afterEachBeat(listener: () => unknown): void {
    this.onBeat = listener
  }

  /** Keeps the heartbeat going from now on, whether or not a run is held (the process watches others' leases). */
  watch(): void {
    this.watching = true
    this.keepBeating(true)
  }

  /** No run is held here any more: the heartbeat stops, unless the process watches others' leases. */
  rest(): void {
    if (!this.watching) this.keepBeating(false)
  }

  /** A lease for this process, from now. */
  next(): Lease {
    return { owner: this.options.owner, expiresAt: this.options.now() + this.options.leaseMs }
  }

  /**
   * Makes sure the lease holds for at least two thirds of its length before this process takes a
   * run on (a new run, a takeover): renews it now unless a heartbeat just did.
   */
  async ensure(): Promise<void> {
    if (!this.stopped && this.holdsUntil - this.options.now() < (this.options.leaseMs * 2) / 3) await this.renew()
  }

  /**
   * Before a write of a held run: when the lease has less than a third of its length left (the
   * heartbeat is late: the process stalled), renews it first. A renewal after the lease had
   * expired reports the runs another process took over meanwhile (`lost`), so no write of a run
   * it no longer holds follows a stall the heartbeat did not see.
   */
  current(): Promise<void> | undefined {
    // A process that never took a lease holds no run (a web process writing a queued run's end).
    if (this.stopped || !this.holdsUntil || this.holdsUntil - this.options.now() >= this.options.leaseMs / 3) return undefined
    return this.renew()
  }

  /** Starts or stops the heartbeat; it never keeps the process alive on its own. */
  keepBeating(wanted: boolean): void {
    if (wanted && !this.timer && !this.stopped) {
      this.timer = setInterval(() => void this.beat(), Math.max(50, Math.floor(this.options.leaseMs / 3)))
      this.timer.unref()
    }
    else if (!wanted && this.timer) {
      clearInterval(this.timer)
      this.timer = undefined
    }
  }

  /** Stops the heartbeat for good (the process is shutting down). */
  stop(): void {
    this.keepBeating(false)
    this.stopped = true
  }

  /**
   * One heartbeat: renews the lease and calls `onBeat`. A beat still under way when the next is due
   * (a takeover of many runs) is the one that goes on: the next is skipped, never run beside it.
   */
  beat(): Promise<void> {
    this.beating ??= this.beatOnce().finally(() => { this.beating = undefined })
    return this.beating
  }

  private async beatOnce(): Promise<void> {
    try {
      if (this.options.held().length) await this.renew()
      await this.onBeat?.()
    }
    catch (error) {
      console.error(`judgeflow: the run lease heartbeat failed: ${(error as Error).message}`)
    }
  }

  /** One renewal at a time: starts arriving together share it. */
  private renew(): Promise<void> {
    this.renewing ??= this.write().finally(() => { this.renewing = undefined })
    return this.renewing
  }

  private async write(): Promise<void> {
    const lapsed = this.options.now() >= this.holdsUntil
    const lease = this.next()
    await this.leases.renew(lease)
    this.holdsUntil = lease.expiresAt
    if (!lapsed) return
    for (const id of this.options.held()) {
      const row = await this.leases.get(id)
      if (row && row.leaseOwner !== this.options.owner && isUnfinishedStatus(row.status)) this.options.lost(id)
    }
  }
}
