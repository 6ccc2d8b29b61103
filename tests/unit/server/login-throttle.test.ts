import { describe, expect, it } from 'vitest'
import { LoginThrottle } from '../../../server/utils/login-throttle'

const t0 = 1_000_000

describe('LoginThrottle: back-off per client after wrong tokens', () => {
  it('lets four failures through, then locks out for 1 s, doubling with each failure up to the cap', () => {
    const throttle = new LoginThrottle({ lockAfter: 5, baseMs: 1000, maxMs: 8000 })
    for (let i = 0; i < 4; i++) expect(throttle.fail('a', t0)).toBe(0)
    expect(throttle.retryAfterMs('a', t0)).toBe(0)
    expect(throttle.fail('a', t0)).toBe(1000)
    expect(throttle.retryAfterMs('a', t0)).toBe(1000)
    expect(throttle.retryAfterMs('a', t0 + 400)).toBe(600)
    expect(throttle.retryAfterMs('a', t0 + 1000)).toBe(0)
    expect([2, 3, 4, 5].map(k => throttle.fail('a', t0 + k * 10_000))).toEqual([2000, 4000, 8000, 8000])
    // Other clients are not affected.
    expect(throttle.retryAfterMs('b', t0 + 50_000)).toBe(0)
  })

  it('starts over after the right token', () => {
    const throttle = new LoginThrottle({ lockAfter: 3, baseMs: 1000 })
    for (let i = 0; i < 3; i++) throttle.fail('a', t0)
    throttle.succeed('a')
    expect(throttle.retryAfterMs('a', t0)).toBe(0)
    expect(throttle.fail('a', t0)).toBe(0)
    expect(throttle.fail('a', t0)).toBe(0)
    expect(throttle.fail('a', t0)).toBe(1000)
  })

  it('forgets a client not seen for forgetMs once its lock-out is over', () => {
    const throttle = new LoginThrottle({ lockAfter: 2, baseMs: 1000, forgetMs: 60_000 })
    throttle.fail('a', t0)
    throttle.fail('a', t0)
    expect(throttle.retryAfterMs('a', t0 + 59_000)).toBe(0)
    expect(throttle.fail('a', t0 + 59_000)).toBe(2000) // still remembered: the third failure
    expect(throttle.fail('a', t0 + 59_000 + 60_000)).toBe(0) // forgotten: a first failure again
  })

  it('holds at most maxClients, dropping stale ones first, then the least recently seen', () => {
    const throttle = new LoginThrottle({ lockAfter: 1, baseMs: 1000, maxClients: 3, forgetMs: 60_000 })
    throttle.fail('old', t0)
    throttle.fail('b', t0 + 70_000)
    throttle.fail('c', t0 + 70_000)
    throttle.fail('d', t0 + 70_000) // 'old' is stale and goes
    expect(throttle.size).toBe(3)
    expect(throttle.retryAfterMs('b', t0 + 70_000)).toBe(1000)
    throttle.fail('e', t0 + 70_000) // none stale: 'b', seen least recently, goes
    expect(throttle.size).toBe(3)
    expect(throttle.retryAfterMs('b', t0 + 70_000)).toBe(0)
    expect(throttle.retryAfterMs('e', t0 + 70_000)).toBe(1000)
    for (let i = 0; i < 1000; i++) throttle.fail(`client-${i}`, t0 + 80_000)
    expect(throttle.size).toBe(3)
  })
})
