import { createHmac, timingSafeEqual } from 'node:crypto'
import type { H3Event } from 'h3'

/**
 * The access model: on loopback (the default) the machine's own user is trusted; on any other
 * address JUDGEFLOW_TOKEN is required — a bearer header for the API, or the session cookie the
 * login form sets for the UI. The token itself is never stored in the cookie.
 */
export const SESSION_COOKIE = 'judgeflow_session'

export const configuredToken = () => process.env.JUDGEFLOW_TOKEN || undefined

export function isLoopback(address: string | undefined): boolean {
  if (!address) return false
  const a = address.replace(/^\[|\]$/g, '').toLowerCase()
  return a === 'localhost' || a === '::1' || a.startsWith('127.') || a.startsWith('::ffff:127.')
}

/** The address the server listens on, as Nitro reads it; unset means every interface. */
export const listenHost = () => process.env.NITRO_HOST || process.env.HOST || ''

/** The cookie value: an HMAC of the token, so the cookie never carries the token itself. */
export function sessionValue(token: string): string {
  return createHmac('sha256', token).update('judgeflow-session-v1').digest('hex')
}

export function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given)
  const b = Buffer.from(expected)
  return a.length === b.length && timingSafeEqual(a, b)
}

export function isAuthenticated(event: H3Event, token: string): boolean {
  const header = getRequestHeader(event, 'authorization')
  if (header?.startsWith('Bearer ') && sameSecret(header.slice(7).trim(), token)) return true
  const cookie = getCookie(event, SESSION_COOKIE)
  return !!cookie && sameSecret(cookie, sessionValue(token))
}
