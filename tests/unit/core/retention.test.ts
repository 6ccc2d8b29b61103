import { afterEach, describe, expect, it, vi } from 'vitest'
import { createJudgeflow, loadConfig, retentionNote, retentionPolicy, scheduleRetention, type Judgeflow } from '../../../core'
import { createSqliteStore, openDatabase } from '../../../db'
import { llmCache } from '../../../db/schema'
import type { ChatResponse } from '../../../engine'

const DAY = 86_400_000

describe('the retention schedule', () => {
  let app: Judgeflow | undefined
  afterEach(async () => {
    vi.useRealTimers()
    await app?.close()
    app = undefined
  })

  it('turns the settings into a policy: runs only with a day or run count, the cache always', () => {
    const defaults = loadConfig({}).retention
    expect(retentionPolicy(defaults, 5)).toEqual({ now: 5, maxAgeMs: undefined, keepPerWorkflow: undefined, cacheMaxEntries: 10_000 })
    expect(retentionPolicy({ ...defaults, maxAgeDays: 2, keepPerWorkflow: 3 }, 5)).toMatchObject({ maxAgeMs: 2 * DAY, keepPerWorkflow: 3 })
  })

  it('says why a run may be missing only when retention deletes runs', () => {
    expect(retentionNote(loadConfig({}).retention)).toBeUndefined()
    expect(retentionNote(loadConfig({ JUDGEFLOW_RETENTION_DAYS: '30', JUDGEFLOW_RETENTION_RUNS: '100' }).retention)).toBe('It may have been deleted: finished runs '
      + 'older than 30 days (JUDGEFLOW_RETENTION_DAYS) or beyond the newest 100 of their workflow (JUDGEFLOW_RETENTION_RUNS) are deleted with their steps and events; '
      + 'dataset runs keep their cases\' results.')
  })

  it('prunes the app\'s store every interval, and stops with the app', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'Date'] })
    vi.setSystemTime(0)
    const config = loadConfig({ JUDGEFLOW_RETENTION_DAYS: '1', JUDGEFLOW_RETENTION_INTERVAL_MS: '60000' })
    app = createJudgeflow(config, { store: createSqliteStore(openDatabase(':memory:')) })
    const run = await app.store.runs.create({ definition: { name: 'w' } })
    await app.store.runs.write(run.id, [{ type: 'run.finished', at: 0, result: { status: 'succeeded', verdict: null, output: null, error: null, steps: {}, duration_ms: 1 } }])
    vi.setSystemTime(2 * DAY)
    const pruned = vi.spyOn(app.store.retention, 'prune')
    await vi.advanceTimersByTimeAsync(60_000)
    expect(pruned).toHaveBeenCalledTimes(1)
    await pruned.mock.results[0]!.value
    expect(await app.store.runs.get(run.id)).toBeNull()
    await app.close()
    app = undefined
    await vi.advanceTimersByTimeAsync(120_000)
    expect(pruned).toHaveBeenCalledTimes(1)
  })

  it('keeps the response cache within its bound between scheduled prunes, evicting the least recently used', async () => {
    vi.useFakeTimers({ toFake: ['Date'] })
    const store = createSqliteStore(openDatabase(':memory:'))
    const schedule = scheduleRetention(store, { ...loadConfig({}).retention, cacheMaxEntries: 20 })
    const cache = schedule.boundedCache(store.cache)
    const answer = { text: 'a' } as unknown as ChatResponse
    for (let i = 0; i < 30; i++) {
      vi.setSystemTime(i)
      await cache.set(`k${i}`, answer, { provider: 'openai', model: 'm' })
      if (i === 15) expect(await cache.get('k0')).toEqual(answer)
    }
    await schedule.stop()
    const kept = store.handle.db.select({ key: llmCache.key }).from(llmCache).all().map(r => r.key)
    // Over the bound by a tenth of it at most (the entries written since the last trim).
    expect(kept.length).toBeGreaterThanOrEqual(20)
    expect(kept.length).toBeLessThanOrEqual(22)
    expect(kept).toContain('k0')
    expect(kept).not.toContain('k1')
    store.close()
  })

  it('runs one prune at a time and reports a failed one', async () => {
    const store = createSqliteStore(openDatabase(':memory:'))
    const messages: string[] = []
    let calls = 0
    store.retention.prune = async () => {
      calls++
      throw new Error('disk full')
    }
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] })
    const schedule = scheduleRetention(store, { ...loadConfig({}).retention, intervalMs: 1000 }, { log: m => messages.push(m) })
    await vi.advanceTimersByTimeAsync(1000)
    expect(messages).toEqual(['judgeflow: the retention prune failed, and runs again in 1000 ms: disk full'])
    const [a, b] = [schedule.pruneNow(), schedule.pruneNow()]
    expect(a).toBe(b)
    await expect(a).rejects.toThrow('disk full')
    expect(calls).toBe(2)
    await schedule.stop()
    store.close()
  })
})
