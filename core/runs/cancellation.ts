import { JudgeflowError } from '../../engine'
import { isUnfinishedStatus } from '../rows'
import type { MaybePromise } from '../store'
import { withDeadline } from './deadline'
import type { Dispatch } from './dispatch'
import type { Following } from './following'
import { leaseIsFree, type LeaseKeeper } from './leases'
import { CANCELLED_BEFORE_START, type LocalRuns } from './local-runs'
import type { RunQueue } from './run-queue'
import { endEvent, type RunWriter } from './run-writer'
import type { RunServiceDeps } from './types'

/** How long a workflow's deletion waits for its cancelled runs to stop. */
export const STOP_WAIT_MS = 10_000
/** How often a workflow's deletion looks at its runs stopping on other processes. */
const ELSEWHERE_CHECK_MS = 250

export interface CancellationDeps extends Pick<RunServiceDeps, 'store'> {
  owner: string
  queue: RunQueue
  local: LocalRuns
  dispatch: Dispatch
  following: Following
  leases: LeaseKeeper
  writes: RunWriter
  now: () => number
}

/**
 * How a run is cancelled, one path wherever it is: in this process (waiting, being claimed or
 * executing), still waiting in the run queue (its job withdrawn with the run's end), held by no
 * live process (marked interrupted, with the reason), or executing on another live process (which
 * is asked through the queue, and says whether it is cancelling it).
 */
export class Cancellation {
  constructor(private readonly deps: CancellationDeps) {}

  /** Stops a run this process has (waiting, being claimed, executing or being ended): what to wait for, or undefined when it is not here. */
  here(runId: string): Promise<unknown> | undefined {
    // Launched already, although its claim has not quite let go: stopped as it executes.
    const stopped = this.deps.local.stop(runId)
    if (stopped) return stopped
    const claim = this.deps.dispatch.claimOf(runId)
    if (!claim) return undefined
    claim.cancelled = true
    return claim.done
  }

  /**
   * Cancels the run wherever it is; 'interrupted' when no live process held it. Refuses with a
   * NOT_CANCELLABLE error saying why when it cannot (the run has ended, or its holder did not answer).
   */
  async cancel(runId: string): Promise<'cancelling' | 'interrupted'> {
    if (this.here(runId) || await this.withdraw(runId)) return 'cancelling'
    const { queue, store, leases, owner, writes } = this.deps
    await leases.ensure()
    const now = this.deps.now()
    let reason: string
    try {
      reason = await store.leases.claimToInterrupt(runId, { owner, now, lease: leases.next(), isFree: lease => leaseIsFree(lease, owner, now) })
    }
    catch (error) {
      // Another live process holds it (a worker): it cancels the run when asked, and says so; a holder that does not answer is refused as before.
      const lease = (error as JudgeflowError).code === 'NOT_CANCELLABLE' ? await store.leases.get(runId) : null
      if (!lease || !isUnfinishedStatus(lease.status) || !(await queue.requestCancel(runId))) throw error
      return 'cancelling'
    }
    if (!await writes.finish(runId, endEvent('interrupted', { code: 'CANCELLED', category: 'user', message: reason }))) {
      throw new JudgeflowError('NOT_CANCELLABLE', `run "${runId}" was taken on by another judgeflow process meanwhile: cancel it again`)
    }
    return 'interrupted'
  }

  /**
   * Ends every queued or running run of a workflow — those here, those waiting in the queue and
   * those executing on other processes — then calls `remove` (which deletes the workflow with its runs)
   * in the same turn, so no run of it writes after its rows are gone.
   * No run of the workflow starts meanwhile, nor before `remove` has resolved; starts under way
   * are waited for, then cancelled with the rest. Every subscriber gets each run's `run.finished`. Runs still going after
   * `waitMs` are returned and `remove` is not called.
   */
  async deleteWorkflowWith<T>(workflowId: string, remove: () => MaybePromise<T>, waitMs = STOP_WAIT_MS): Promise<{ removed: T } | { stillRunning: string[] }> {
    const { store, local, dispatch, following } = this.deps
    const { reopen } = await dispatch.closeWorkflow(workflowId)
    try {
      const ids = local.ofWorkflow(workflowId)
      // Runs of the workflow may wait in the queue or execute on other processes: each is cancelled where it is.
      const unfinished = (await store.runs.unfinished(workflowId)).filter(id => !ids.includes(id))
      const claimed = unfinished.filter(id => dispatch.claimOf(id))
      const elsewhere = unfinished.filter(id => !dispatch.claimOf(id))
      // The runs waiting in the queue leave it first: a worker's slot freed by a cancel would otherwise take the next of them.
      await Promise.all(elsewhere.map(id => this.withdraw(id).catch(() => false)))
      await withDeadline(Promise.all([...ids, ...claimed].map(id => this.here(id)).concat(elsewhere.map(id => this.stopElsewhere(id)))), waitMs)
      // A stream here following one of them gets its last events before the rows go.
      await Promise.all(unfinished.map(id => following.catchUp(id)))
      const statuses = unfinished.length ? await store.runs.statuses(unfinished) : new Map<string, string>()
      const stillRunning = [...ids.filter(id => local.executing(id)), ...unfinished.filter(id => isUnfinishedStatus(statuses.get(id) ?? ''))]
      return stillRunning.length ? { stillRunning } : { removed: await remove() }
    }
    finally {
      reopen()
    }
  }

  /** A run still waiting in the queue, taken by no process: its job is withdrawn and the run ended cancelled, together. */
  private withdraw(runId: string): Promise<boolean> {
    return this.deps.queue.withdraw(runId, endEvent('cancelled', CANCELLED_BEFORE_START))
  }

  /** A workflow's run on another process (or waiting in the queue): cancelled, or marked interrupted when its holder is gone; then waited for. */
  private async stopElsewhere(runId: string): Promise<void> {
    // Refused when it ended meanwhile, or when its holder did not answer: then only its end (or the deadline) is waited for.
    await this.cancel(runId).catch(() => undefined)
    await this.deps.following.whenEnded(runId, ELSEWHERE_CHECK_MS).catch(() => undefined)
  }
}
