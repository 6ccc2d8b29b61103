import type { ResponseCache } from '../engine'
import type { JudgeflowConfig } from './config'
import type { PruneResult, RetentionPolicy, Store } from './store'

const DAY_MS = 86_400_000

/** The policy of a prune at `now`: runs only with JUDGEFLOW_RETENTION_DAYS or _RUNS set; the cache always bounded. */
export function retentionPolicy(settings: JudgeflowConfig['retention'], now: number): RetentionPolicy {
  return {
    now,
    maxAgeMs: settings.maxAgeDays === undefined ? undefined : settings.maxAgeDays * DAY_MS,
    keepPerWorkflow: settings.keepPerWorkflow,
    cacheMaxEntries: settings.cacheMaxEntries,
  }
}

/** Why a run may be missing when retention deletes runs (said in its 404), or undefined when it deletes none. */
export function retentionNote(settings: JudgeflowConfig['retention']): string | undefined {
  const rules: string[] = []
  if (settings.maxAgeDays !== undefined) rules.push(`older than ${settings.maxAgeDays} days (JUDGEFLOW_RETENTION_DAYS)`)
  if (settings.keepPerWorkflow !== undefined) rules.push(`beyond the newest ${settings.keepPerWorkflow} of their workflow (JUDGEFLOW_RETENTION_RUNS)`)
  if (rules.length === 0) return undefined
  return `It may have been deleted: finished runs ${rules.join(' or ')} are deleted with their steps and events; dataset runs keep their cases' results.`
}

export interface RetentionSchedule {
  /** One prune now (or the one under way); the scheduled ones call this too. */
  pruneNow(): Promise<PruneResult>
  /**
   * The store's response cache, trimmed to its bound also between two scheduled prunes: after every
   * tenth of the bound in new entries (at most 1,000), the least recently used over it are evicted,
   * so it exceeds the bound by that tenth at most.
   */
  boundedCache(cache: ResponseCache): ResponseCache
  /** Stops the schedule and waits for a prune under way. */
  stop(): Promise<void>
}

/**
 * Prunes the store every `intervalMs` (JUDGEFLOW_RETENTION_INTERVAL_MS), one prune at a time. The
 * timer does not keep a process alive; a failed prune is reported and the next one tries again.
 */
export function scheduleRetention(store: Store, settings: JudgeflowConfig['retention'], options: { clock?: () => number, log?: (message: string) => void } = {}): RetentionSchedule {
  const clock = options.clock ?? Date.now
  const log = options.log ?? (message => console.error(message))
  let running: Promise<PruneResult> | undefined
  const pruneNow = () => {
    running ??= store.retention.prune(retentionPolicy(settings, clock())).finally(() => { running = undefined })
    return running
  }
  const timer = setInterval(() => {
    pruneNow().catch(error => log(`judgeflow: the retention prune failed, and runs again in ${settings.intervalMs} ms: ${(error as Error).message}`))
  }, settings.intervalMs)
  timer.unref()
  let trimming: Promise<unknown> | undefined
  let written = 0
  const trimEvery = Math.max(1, Math.min(1000, Math.floor(settings.cacheMaxEntries / 10)))
  return {
    pruneNow,
    boundedCache: cache => ({
      get: key => cache.get(key),
      async set(key, value, meta) {
        await cache.set(key, value, meta)
        if (++written < trimEvery || trimming) return
        written = 0
        trimming = store.retention.prune({ now: clock(), cacheMaxEntries: settings.cacheMaxEntries })
          .catch(error => log(`judgeflow: trimming the LLM response cache failed: ${(error as Error).message}`))
          .finally(() => { trimming = undefined })
      },
    }),
    async stop() {
      clearInterval(timer)
      await Promise.all([running?.catch(() => {}), trimming])
    },
  }
}
