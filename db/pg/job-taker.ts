import type PgBoss from 'pg-boss'
import type { RunJob } from '../../core/runs/run-queue'
import { RUN_QUEUE } from './channels'

/** How often a worker with a free slot looks for jobs when no NOTIFY woke it (a missed one, a retry's delay). */
export const POLLING_MS = 500

export interface JobTaker {
  /** A job was sent, or may be waiting: fetch now if a slot is free. */
  wake(): void
  /** Takes no more jobs; those under way go on, and their completion is still recorded. */
  stop(): void
  /** Settles once the completions of the jobs that ended have been recorded. */
  settled(): Promise<void>
}

/**
 * Keeps `concurrency` jobs of the run queue in flight: every free slot is filled at once (when a
 * job ends, or when `wake` is called on a NOTIFY of a sent job), all free slots with one fetch,
 * and a slot is free as soon as its run has ended (the job's completion is written after). Idle,
 * it looks again every POLLING_MS. pg-boss's own `work` instead polls one job per worker, a
 * worker per slot, and only every polling interval after a quick job.
 */
export function takeJobs(boss: PgBoss, concurrency: number, execute: (job: RunJob) => Promise<void>): JobTaker {
  let stopped = false
  let inFlight = 0
  let fetching = false
  let again = false
  let poll: NodeJS.Timeout | undefined
  const completions = new Set<Promise<unknown>>()
  const report = (error: Error) => console.error(`judgeflow: the run queue: ${error.message}`)

  // Jobs done are marked complete together: those ending while a completion is being written go in the next.
  let toComplete: Array<{ id: string, done: () => void }> = []
  let completing = false
  const complete = (id: string) => new Promise<void>((done) => {
    toComplete.push({ id, done })
    void completeWaiting()
  })
  const completeWaiting = async () => {
    if (completing || !toComplete.length) return
    completing = true
    const batch = toComplete
    toComplete = []
    try {
      await boss.complete(RUN_QUEUE, batch.map(job => job.id))
    }
    catch (error) {
      report(error as Error)
    }
    finally {
      completing = false
      for (const job of batch) job.done()
      void completeWaiting()
    }
  }

  const fill = async () => {
    if (fetching) {
      again = true
      return
    }
    fetching = true
    clearTimeout(poll)
    try {
      do {
        again = false
        const free = concurrency - inFlight
        if (stopped || free <= 0) break
        for (const job of await boss.fetch<RunJob>(RUN_QUEUE, { batchSize: free })) start(job)
      } while (again)
    }
    catch (error) {
      report(error as Error)
    }
    finally {
      fetching = false
    }
    if (!stopped && inFlight < concurrency) poll = setTimeout(() => void fill(), POLLING_MS).unref()
  }

  const start = (job: PgBoss.Job<RunJob>) => {
    inFlight++
    void execute(job.data).then(() => undefined, (error: Error) => error).then((error) => {
      inFlight--
      void fill()
      const recorded = (error ? boss.fail(RUN_QUEUE, job.id, { message: error.message }).catch(report) : complete(job.id))
        .finally(() => completions.delete(recorded))
      completions.add(recorded)
    })
  }

  void fill()
  return {
    wake: () => void fill(),
    stop() {
      stopped = true
      clearTimeout(poll)
    },
    async settled() {
      await Promise.all(completions)
    },
  }
}
