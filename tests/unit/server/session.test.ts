import { describe, expect, it } from 'vitest'
import { issueSession, RevokedSessions, verifySession } from '../../../server/utils/session'

const TOKEN = 'x'.repeat(40)
const HOUR = 3_600_000
const t0 = Date.UTC(2026, 0, 1)

describe('session cookies: signed issue and expiry times', () => {
  it('is valid until its expiry, and never carries the token', () => {
    const value = issueSession(TOKEN, 12 * HOUR, t0)
    expect(value).toMatch(/^\d+\.\d+\.[0-9a-f]{64}$/)
    expect(value).not.toContain(TOKEN)
    expect(verifySession(value, TOKEN, 12 * HOUR, t0 + 11 * HOUR)).toEqual({ issuedAt: t0, expiresAt: t0 + 12 * HOUR })
    expect(verifySession(value, TOKEN, 12 * HOUR, t0 + 12 * HOUR)).toBeNull()
  })

  it('refuses a changed expiry, another token, a shorter TTL in force now, and malformed values', () => {
    const value = issueSession(TOKEN, 12 * HOUR, t0)
    const [issued, expires, mac] = value.split('.')
    expect(verifySession(`${issued}.${Number(expires) + 86_400}.${mac}`, TOKEN, 12 * HOUR, t0)).toBeNull()
    expect(verifySession(value, 'y'.repeat(40), 12 * HOUR, t0)).toBeNull()
    expect(verifySession(value, TOKEN, 1 * HOUR, t0 + 2 * HOUR)).toBeNull()
    expect(verifySession(issueSession(TOKEN, HOUR, t0 + 10 * HOUR), TOKEN, HOUR, t0)).toBeNull() // issued in the future
    for (const bad of ['', 'abc', `${issued}.${expires}`, `${issued}.${expires}.${mac}x`, 'a'.repeat(64)]) expect(verifySession(bad, TOKEN, HOUR, t0)).toBeNull()
  })

  it('remembers signed-out sessions until they expire, within a bound', () => {
    const revoked = new RevokedSessions(2)
    revoked.add('a', { issuedAt: t0, expiresAt: t0 + HOUR }, t0)
    revoked.add('b', { issuedAt: t0, expiresAt: t0 + 3 * HOUR }, t0)
    revoked.add('c', { issuedAt: t0, expiresAt: t0 + 2 * HOUR }, t0) // full: 'a', ending first, goes
    expect(['a', 'b', 'c'].map(v => revoked.has(v))).toEqual([false, true, true])
    revoked.add('d', { issuedAt: t0, expiresAt: t0 + 4 * HOUR }, t0 + 2.5 * HOUR) // 'c' has expired
    expect(['b', 'c', 'd'].map(v => revoked.has(v))).toEqual([true, false, true])
    expect(revoked.size).toBe(2)
  })
})
