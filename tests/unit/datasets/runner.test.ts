import { describe, expect, it } from 'vitest'
import { runCases, type CaseRunOutcome, type CaseTask } from '../../../engine/datasets/runner'
import type { CaseResult } from '../../../engine/datasets/schema'

const tasks = (n: number, repeat = 1): CaseTask[] => Array.from({ length: n }, (_, i) => ({ case_id: `c${i + 1}`, repeat }))
const pass = (task: CaseTask): CaseRunOutcome => ({ kind: 'result', result: { ...task, status: 'succeeded', verdict: 'pass' } })
const tick = (ms = 1) => new Promise(resolve => setTimeout(resolve, ms))

describe('runCases', () => {
  it('runs every task once, never more at once than the concurrency, committing each result', async () => {
    let running = 0
    let most = 0
    const committed: CaseResult[] = []
    await runCases({
      tasks: tasks(20),
      concurrency: 4,
      execute: async (task) => {
        most = Math.max(most, ++running)
        await tick(2)
        running--
        return pass(task)
      },
      commit: (result) => {
        committed.push(result)
      },
    })
    expect(most).toBe(4)
    expect(committed.map(r => r.case_id).sort()).toEqual(tasks(20).map(t => t.case_id).sort())
  })

  it('waits the delay before each case starts, one case after another at concurrency 1', async () => {
    const events: string[] = []
    await runCases({
      tasks: tasks(3),
      concurrency: 1,
      delayMs: 250,
      wait: async (ms) => {
        events.push(`wait ${ms}`)
      },
      execute: async (task) => {
        events.push(`start ${task.case_id}`)
        await tick()
        events.push(`end ${task.case_id}`)
        return pass(task)
      },
      commit: () => {},
    })
    expect(events).toEqual(['wait 250', 'start c1', 'end c1', 'wait 250', 'start c2', 'end c2', 'wait 250', 'start c3', 'end c3'])
  })

  it('puts a rate-limited case back and slows down instead of erroring it', async () => {
    const calls: string[] = []
    let running = 0
    const inFlightAfterStorm: number[] = []
    let stormOver = false
    const committed: CaseResult[] = []
    await runCases({
      tasks: tasks(12),
      concurrency: 8,
      baseBackoffMs: 5,
      execute: async (task) => {
        const call = calls.push(task.case_id)
        running++
        await tick(2)
        running--
        // The first three calls (c1..c3) are refused: a storm while the first wave is in flight.
        if (call <= 3) return { kind: 'rate_limited', retryAfterMs: 20, error: '429 Too Many Requests' }
        if (!stormOver) {
          stormOver = true
        }
        else inFlightAfterStorm.push(running)
        return pass(task)
      },
      commit: (result) => {
        committed.push(result)
      },
    })
    expect(committed).toHaveLength(12)
    expect(committed.every(r => r.status === 'succeeded')).toBe(true)
    // Three refusals, each case run again: 15 calls.
    expect(calls).toHaveLength(15)
    // After the storm, the limit was halved (8 → 4) and earns slots back one by one.
    expect(Math.max(...inFlightAfterStorm)).toBeLessThan(8)
  })

  it('errors a case rate-limited too often, reported with the last reason', async () => {
    const committed: CaseResult[] = []
    await runCases({
      tasks: tasks(1),
      concurrency: 2,
      maxRateLimited: 3,
      baseBackoffMs: 1,
      execute: async () => ({ kind: 'rate_limited', error: '429 slow down' }),
      commit: (result) => {
        committed.push(result)
      },
    })
    expect(committed).toEqual([{ case_id: 'c1', repeat: 1, status: 'errored', error: 'rate-limited by the provider 3 times: 429 slow down' }])
  })

  it('stops starting cases when cancelled, and aborts those in flight', async () => {
    const controller = new AbortController()
    const started: string[] = []
    const aborted: string[] = []
    const committed: CaseResult[] = []
    const done = runCases({
      tasks: tasks(10),
      concurrency: 2,
      signal: controller.signal,
      execute: (task, signal) => new Promise((resolve) => {
        started.push(task.case_id)
        const timer = setTimeout(() => resolve(pass(task)), 5)
        signal.addEventListener('abort', () => {
          clearTimeout(timer)
          aborted.push(task.case_id)
          resolve({ kind: 'result', result: { ...task, status: 'errored', error: 'cancelled' } })
        })
      }),
      commit: (result) => {
        committed.push(result)
        if (committed.length === 3) controller.abort()
      },
    })
    await done
    expect(started.length).toBeLessThanOrEqual(5)
    expect(aborted.length).toBeGreaterThan(0)
    expect(committed.filter(r => r.status === 'errored')).toEqual([])
  })

  it('stops everything when judgeflow itself fails, and says why', async () => {
    let started = 0
    await expect(runCases({
      tasks: tasks(10),
      concurrency: 1,
      execute: async (task) => {
        if (++started === 2) throw new Error('the database is read-only')
        return pass(task)
      },
      commit: () => {},
    })).rejects.toThrow('the database is read-only')
    expect(started).toBe(2)
  })
})
