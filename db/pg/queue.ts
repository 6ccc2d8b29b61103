import pg from 'pg'
import PgBoss from 'pg-boss'
import type { RunQueue } from '../../core/runs/run-queue'
import { bossDb } from './boss-statements'
import { withQueryFailures } from './errors'
import type { PostgresStore } from './store'
import { pgCancelQueued } from './withdraw'
import { BOSS_SCHEMA, RUN_CANCEL_CHANNEL, RUN_EVENTS_CHANNEL, RUN_JOBS_CHANNEL, RUN_QUEUE } from './channels'
import { takeJobs, type JobTaker } from './job-taker'
import { START_COMMITS, startSubmitter } from './submit'

/** How long a cancel request waits for the process holding the run to say it is cancelling it. */
const CANCEL_ANSWER_MS = 1_000

/**
 * The run queue on PostgreSQL: pg-boss (schema `pgboss` of the same database) holds one job per
 * started run (its singleton key is the run's id); LISTEN on one connection hears the events
 * (unless `runEvents` is false) and cancel requests every process NOTIFYs, and in a process working
 * the queue, that jobs were sent (`job-taker.ts`). pg-boss keeps no heartbeat of a job: a worker
 * that dies leaves its runs to the lease takeover, and a job taken again finds its run held or ended.
 */
export interface PgRunQueueOptions {
  /**
   * The store of the same database: its runs are claimed and withdrawn through it, and the queue
   * waits for its migrations (a start's transaction writes the runs table).
   */
  store: PostgresStore
  /**
   * Whether this process hears the run events other processes commit (default true). A process
   * that only works the queue (`judgeflow worker`) follows no run executing elsewhere: without
   * them, it is not woken at each batch of events every other worker commits. Anything that
   * still waits there for such a run's end finds it by its periodic check.
   */
  runEvents?: boolean
}

export function createPgRunQueue(url: string, options: PgRunQueueOptions): RunQueue {
  const { store } = options
  // pg-boss's statements go on a pool of this process's, each prepared once per connection (boss-statements.ts).
  const bossPool = new pg.Pool({ connectionString: url, max: 4, application_name: 'pgboss' })
  bossPool.on('error', error => console.error(`judgeflow: the run queue: ${error.message}`))
  const boss = new PgBoss({ db: bossDb(bossPool), schema: BOSS_SCHEMA })
  // Connections of the starts' transactions (made as the first start comes: a worker starts none).
  const starts = new pg.Pool({ connectionString: url, max: START_COMMITS })
  starts.on('error', error => console.error(`judgeflow: a PostgreSQL connection failed: ${error.message}`))
  boss.on('error', error => console.error(`judgeflow: the run queue: ${error.message}`))
  const eventListeners = new Set<(runId: string, eventId: number, type?: string) => void>()
  const cancelListeners = new Set<(runId: string) => boolean>()
  /** Cancel requests of this process waiting for the holder's answer. */
  const cancelWaiters = new Map<string, () => void>()
  let listener: pg.Client | undefined
  let closed = false
  const started = boss.start().then(() => createQueueOnce(boss))
  started.catch(() => {})
  const submit = startSubmitter(starts, boss, Promise.all([started, store.handle.ready]))
  const { cancelQueued } = withQueryFailures({ cancelQueued: pgCancelQueued(store.handle.db, store.handle.ready) })
  const listening = (async () => {
    const client = new pg.Client({ connectionString: url })
    client.on('error', error => console.error(`judgeflow: the run events connection failed: ${error.message}`))
    await client.connect()
    client.on('notification', ({ channel, payload }) => {
      if (channel === RUN_JOBS_CHANNEL) for (const taker of takers) taker.wake()
      if (!payload) return
      if (channel === RUN_EVENTS_CHANNEL) {
        // A line per event: the events written together are told together.
        for (const line of payload.split('\n')) {
          const [runId, id, type] = line.split(' ')
          for (const l of eventListeners) l(runId!, Number(id), type)
        }
      }
      else if (channel === RUN_CANCEL_CHANNEL) {
        const [kind, runId] = payload.split(' ') as [string, string]
        if (kind === 'cancelling') cancelWaiters.get(runId)?.()
        else if ([...cancelListeners].some(l => l(runId))) void listener?.query('select pg_notify($1, $2)', [RUN_CANCEL_CHANNEL, `cancelling ${runId}`]).catch(() => {})
      }
    })
    if (options.runEvents !== false) await client.query(`LISTEN ${RUN_EVENTS_CHANNEL}`)
    await client.query(`LISTEN ${RUN_CANCEL_CHANNEL}`)
    listener = client
  })()
  listening.catch(error => console.error(`judgeflow: could not listen for run events: ${(error as Error).message}`))
  const takers: JobTaker[] = []
  const announce = announcer(boss)
  return {
    submit,
    // Jobs wait for the workers (`work`): a web server started with --no-worker takes none.
    takenAtOnce: 0,
    async enqueue(job) {
      await started
      await boss.send(RUN_QUEUE, job, { singletonKey: job.runId, retryLimit: 3, retryDelay: 1 })
      announce()
    },
    async work(concurrency, execute) {
      await started
      await listening
      await listener!.query(`LISTEN ${RUN_JOBS_CHANNEL}`)
      takers.push(takeJobs(boss, concurrency, execute))
    },
    claim: async (job, claimOptions) => store.leases.claimQueued(job.runId, claimOptions),
    withdraw: async (runId, event) => (await cancelQueued(runId, event)) !== null,
    async stopWorking() {
      for (const taker of takers) taker.stop()
    },
    async requestCancel(runId) {
      await listening
      let timer: NodeJS.Timeout | undefined
      const answered = new Promise<boolean>((resolve) => {
        cancelWaiters.set(runId, () => resolve(true))
        timer = setTimeout(() => resolve(false), CANCEL_ANSWER_MS)
      })
      try {
        await listener!.query('select pg_notify($1, $2)', [RUN_CANCEL_CHANNEL, `cancel ${runId}`])
        return await answered
      }
      finally {
        clearTimeout(timer)
        cancelWaiters.delete(runId)
      }
    },
    onCancel(l) { cancelListeners.add(l) },
    onEvent(l) { eventListeners.add(l) },
    async close() {
      if (closed) return
      closed = true
      for (const taker of takers) taker.stop()
      await Promise.all(takers.map(taker => taker.settled()))
      await started.catch(() => {})
      await boss.stop({ graceful: true, wait: true, timeout: 5_000 }).catch(() => {})
      await bossPool.end().catch(() => {})
      await listening.catch(() => {})
      await listener?.end().catch(() => {})
      await starts.end().catch(() => {})
    },
  }
}

/** One NOTIFY for the jobs sent in one turn of the event loop (a missed one costs a polling interval, not a job). */
function announcer(boss: PgBoss): () => void {
  let announcing = false
  return () => {
    if (announcing) return
    announcing = true
    setImmediate(() => {
      announcing = false
      void boss.getDb().executeSql('select pg_notify($1, $2)', [RUN_JOBS_CHANNEL, '']).catch(() => {})
    })
  }
}

/**
 * The order pg-boss fetches jobs in (priority, then creation, then id, among those not yet active),
 * as an index. pg-boss's own index on the queued jobs (name, start_after) does not give that order,
 * so each fetch read and sorted every queued job: 75–93 ms of PostgreSQL's time per fetch with
 * 40,000 runs queued, about 0.2 ms with this index. Built on the partitioned job table, it is built
 * on each queue's partition too, now and when one is created. It changes no answer, only the plan.
 */
const FETCH_ORDER_INDEX = `create index if not exists judgeflow_job_fetch_order on ${BOSS_SCHEMA}.job (name, priority desc, created_on, id) where state < 'active'`

/** Processes starting together may both create the queue: PostgreSQL then picks one to fail (a deadlock); it looks again. */
async function createQueueOnce(boss: PgBoss): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      if (!(await boss.getQueue(RUN_QUEUE))) await boss.createQueue(RUN_QUEUE)
      await boss.getDb().executeSql(FETCH_ORDER_INDEX, [])
      return
    }
    catch (error) {
      if (attempt >= 5) throw error
      await new Promise(resolve => setTimeout(resolve, 50 + Math.random() * 200))
    }
  }
}
