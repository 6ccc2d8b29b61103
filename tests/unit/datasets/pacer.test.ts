import { describe, expect, it } from 'vitest'
import { AdaptivePacer } from '../../../engine/datasets/pacer'

function fill(pacer: AdaptivePacer, now: number): number {
  let n = 0
  while (pacer.waitMs(now) === 0) {
    pacer.started()
    n++
  }
  return n
}

describe('AdaptivePacer', () => {
  it('keeps the asked concurrency in flight while runs end cleanly', () => {
    const pacer = new AdaptivePacer({ concurrency: 8 })
    expect(fill(pacer, 0)).toBe(8)
    expect(pacer.waitMs(0)).toBe(Infinity)
    pacer.finished(10, { rateLimited: false })
    expect(fill(pacer, 10)).toBe(1)
  })

  it('halves the limit and pauses for Retry-After on a rate-limited run, then earns slots back one at a time', () => {
    const pacer = new AdaptivePacer({ concurrency: 8 })
    fill(pacer, 0)
    pacer.finished(100, { rateLimited: true, retryAfterMs: 2_000 })
    expect(pacer.limit).toBe(4)
    // 7 still in flight, more than the new limit: nothing starts until they drop below 4, nor before 2.1 s.
    for (let i = 0; i < 4; i++) pacer.finished(200, { rateLimited: false })
    expect(pacer.inFlight).toBe(3)
    // Four clean runs at limit 4 earn one slot: 5.
    expect(pacer.limit).toBe(5)
    expect(pacer.waitMs(200)).toBe(1_900)
    expect(pacer.waitMs(2_100)).toBe(0)
    expect(fill(pacer, 2_100)).toBe(2)
  })

  it('halves once per storm: runs that were in flight when it began only extend the pause', () => {
    const pacer = new AdaptivePacer({ concurrency: 8 })
    fill(pacer, 0)
    pacer.finished(0, { rateLimited: true, retryAfterMs: 1_000 })
    pacer.finished(10, { rateLimited: true })
    pacer.finished(20, { rateLimited: true, retryAfterMs: 3_000 })
    expect(pacer.limit).toBe(4)
    expect(pacer.waitMs(20)).toBe(Infinity)
    pacer.finished(30, { rateLimited: false })
    pacer.finished(30, { rateLimited: false })
    expect(pacer.inFlight).toBe(3)
    expect(pacer.waitMs(30)).toBe(2_990)
  })

  it('backs off longer while a storm without Retry-After goes on, never below one in flight, and resets after a clean run', () => {
    const pacer = new AdaptivePacer({ concurrency: 4, baseBackoffMs: 1_000, maxBackoffMs: 5_000 })
    let now = 0
    const pauses: number[] = []
    for (let i = 0; i < 5; i++) {
      pacer.started()
      pacer.finished(now, { rateLimited: true })
      pauses.push(pacer.waitMs(now))
      now += pauses.at(-1)!
    }
    expect(pauses).toEqual([1_000, 2_000, 4_000, 5_000, 5_000])
    expect(pacer.limit).toBe(1)
    pacer.started()
    pacer.finished(now, { rateLimited: false })
    expect(pacer.limit).toBe(2)
    pacer.started()
    pacer.finished(now, { rateLimited: true })
    expect(pacer.waitMs(now)).toBe(1_000)
  })
})
