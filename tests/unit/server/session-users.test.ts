import { createHmac } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { issueSession, verifySession } from '../../../server/utils/session'

const TOKEN = 'x'.repeat(40)
const HOUR = 3_600_000
const t0 = Date.UTC(2026, 0, 1)
const b64 = (name: string) => Buffer.from(name).toString('base64url')

/** A person's session (JUDGEFLOW_USERS): the name travels in the cookie, under the same MAC as its times. */
describe('session cookies of a person', () => {
  it('carries the name, base64url-encoded, and gives it back; a session without one is as before', () => {
    const value = issueSession(TOKEN, 12 * HOUR, t0, 'Zoë O\'Brien')
    expect(value).toMatch(/^\d+\.\d+\.[A-Za-z0-9_-]+\.[0-9a-f]{64}$/)
    expect(value.split('.')[2]).toBe(b64('Zoë O\'Brien'))
    expect(verifySession(value, TOKEN, 12 * HOUR, t0 + HOUR)).toEqual({ issuedAt: t0, expiresAt: t0 + 12 * HOUR, user: 'Zoë O\'Brien' })
    const plain = issueSession(TOKEN, 12 * HOUR, t0)
    expect(plain).toMatch(/^\d+\.\d+\.[0-9a-f]{64}$/)
    expect(verifySession(plain, TOKEN, 12 * HOUR, t0 + HOUR)).toStrictEqual({ issuedAt: t0, expiresAt: t0 + 12 * HOUR })
  })

  it('keeps working for a cookie issued before names existed (the same MAC over the times alone)', () => {
    const issued = t0 / 1000
    const expires = issued + 12 * 3600
    const old = `${issued}.${expires}.${createHmac('sha256', TOKEN).update(`judgeflow-session-v2.${issued}.${expires}`).digest('hex')}`
    expect(verifySession(old, TOKEN, 12 * HOUR, t0)).toStrictEqual({ issuedAt: t0, expiresAt: t0 + 12 * HOUR })
  })

  it('refuses an edited name, a name added to a session of no one, a name taken away, and another token\'s', () => {
    const [issued, expires, name, mac] = issueSession(TOKEN, 12 * HOUR, t0, 'ana').split('.')
    expect(name).toBe(b64('ana'))
    expect(verifySession(`${issued}.${expires}.${b64('bo')}.${mac}`, TOKEN, 12 * HOUR, t0)).toBeNull()
    expect(verifySession(`${issued}.${expires}.${mac}`, TOKEN, 12 * HOUR, t0)).toBeNull()
    const [, , plainMac] = issueSession(TOKEN, 12 * HOUR, t0).split('.')
    expect(verifySession(`${issued}.${expires}.${b64('ana')}.${plainMac}`, TOKEN, 12 * HOUR, t0)).toBeNull()
    expect(verifySession(`${issued}.${Number(expires) + 86_400}.${name}.${mac}`, TOKEN, 12 * HOUR, t0)).toBeNull()
    expect(verifySession(issueSession('y'.repeat(40), 12 * HOUR, t0, 'ana'), TOKEN, 12 * HOUR, t0)).toBeNull()
    // A name forged with the MAC recomputed without the token is still refused.
    const guessed = createHmac('sha256', '').update(`judgeflow-session-v2.${issued}.${expires}.${b64('bo')}`).digest('hex')
    expect(verifySession(`${issued}.${expires}.${b64('bo')}.${guessed}`, TOKEN, 12 * HOUR, t0)).toBeNull()
    for (const bad of [`${issued}.${expires}..${mac}`, `${issued}.${expires}.an+a.${mac}`, `${issued}.${expires}.${name}.${name}.${mac}`]) {
      expect(verifySession(bad, TOKEN, 12 * HOUR, t0), bad).toBeNull()
    }
  })

  it('still expires with the TTL in force now', () => {
    const value = issueSession(TOKEN, 12 * HOUR, t0, 'ana')
    expect(verifySession(value, TOKEN, 12 * HOUR, t0 + 12 * HOUR)).toBeNull()
    expect(verifySession(value, TOKEN, HOUR, t0 + 2 * HOUR)).toBeNull()
  })
})
