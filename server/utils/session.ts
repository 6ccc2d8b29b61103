import { createHmac, timingSafeEqual } from 'node:crypto'

/**
 * The session cookie's value: `<issued>.<expires>.<mac>`, times in seconds since the epoch and
 * the MAC an HMAC-SHA256 of both keyed with JUDGEFLOW_TOKEN; a person's session (JUDGEFLOW_USERS)
 * is `<issued>.<expires>.<user>.<mac>`, the name in base64url and under the MAC too, so it cannot
 * be changed. The two MACs' inputs differ in shape (a name is one field more), so neither form can
 * be made from the other. The server checks the expiry itself, so a copied cookie stops working
 * when it ends whatever the browser does; a new token ends every session. The value never carries
 * the token.
 */
const VERSION = 'judgeflow-session-v2'
const FORMAT = /^(\d{1,12})\.(\d{1,12})\.(?:([A-Za-z0-9_-]{1,400})\.)?([0-9a-f]{64})$/

export interface Session {
  issuedAt: number
  expiresAt: number
  /** Who signed in, when the server lists its people (JUDGEFLOW_USERS). */
  user?: string
}

export function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given)
  const b = Buffer.from(expected)
  return a.length === b.length && timingSafeEqual(a, b)
}

const mac = (token: string, issued: number, expires: number, user?: string) =>
  createHmac('sha256', token).update(`${VERSION}.${issued}.${expires}${user === undefined ? '' : `.${user}`}`).digest('hex')

/** A session's cookie value, for `user` when given (a name of JUDGEFLOW_USERS). */
export function issueSession(token: string, ttlMs: number, now = Date.now(), user?: string): string {
  const issued = Math.floor(now / 1000)
  const expires = Math.floor((now + ttlMs) / 1000)
  const name = user === undefined ? undefined : Buffer.from(user).toString('base64url')
  return `${issued}.${expires}.${name === undefined ? '' : `${name}.`}${mac(token, issued, expires, name)}`
}

/**
 * The session a cookie value stands for, or null when it is forged, malformed, issued in the
 * future, expired, or older than the TTL in force now (a TTL lowered at restart applies at once).
 */
export function verifySession(value: string, token: string, ttlMs: number, now = Date.now()): Session | null {
  const match = FORMAT.exec(value)
  if (!match) return null
  const issued = Number(match[1])
  const expires = Number(match[2])
  const name = match[3]
  if (!sameSecret(match[4]!, mac(token, issued, expires, name))) return null
  const session: Session = { issuedAt: issued * 1000, expiresAt: Math.min(expires * 1000, issued * 1000 + ttlMs) }
  if (name !== undefined) session.user = Buffer.from(name, 'base64url').toString('utf8')
  return session.issuedAt <= now + 60_000 && now < session.expiresAt ? session : null
}

/**
 * Sessions ended by signing out, until they would have expired anyway. Held in memory (a restart
 * forgets them) and bounded: only a valid session can be added, and past `limit` the one that
 * expires first is dropped.
 */
export class RevokedSessions {
  private readonly ended = new Map<string, number>()

  constructor(private readonly limit = 10_000) {}

  add(value: string, session: Session, now = Date.now()): void {
    this.forgetExpired(now)
    if (this.ended.size >= this.limit) {
      const soonest = [...this.ended].reduce((a, b) => (b[1] < a[1] ? b : a))
      this.ended.delete(soonest[0])
    }
    this.ended.set(value, session.expiresAt)
  }

  has(value: string): boolean {
    return this.ended.has(value)
  }

  get size(): number {
    return this.ended.size
  }

  private forgetExpired(now: number): void {
    for (const [value, expiresAt] of this.ended) if (expiresAt <= now) this.ended.delete(value)
  }
}
