import type { H3Event } from 'h3'
import { JudgeflowError } from '../../engine/errors'
import { LoginThrottle } from './login-throttle'
import { issueSession, RevokedSessions, sameSecret, verifySession, type Session } from './session'

/**
 * The access model: on loopback (the default) the machine's own user is trusted; on any other
 * address JUDGEFLOW_TOKEN is required — a bearer header for the API, or the session cookie the
 * login form sets for the UI. The token itself is never stored in the cookie, and wrong tokens
 * are throttled per client address.
 */
export const SESSION_COOKIE = 'judgeflow_session'
export const MIN_TOKEN_LENGTH = 32
export const DEFAULT_SESSION_TTL_HOURS = 12

export interface AccessConfig {
  token?: string
  sessionTtlMs: number
  /** Why the server must not start with these settings, in one sentence. */
  problem?: string
}

/** JUDGEFLOW_TOKEN, JUDGEFLOW_SESSION_TTL_HOURS and the listening address, checked together. */
export function readAccessConfig(env: Record<string, string | undefined> = process.env): AccessConfig {
  const token = env.JUDGEFLOW_TOKEN || undefined
  const host = env.NITRO_HOST || env.HOST || ''
  const ttlText = env.JUDGEFLOW_SESSION_TTL_HOURS?.trim()
  const ttlHours = ttlText ? Number(ttlText) : DEFAULT_SESSION_TTL_HOURS
  const config: AccessConfig = { token, sessionTtlMs: ttlHours * 3_600_000 }
  if (!isLoopback(host) && !token) {
    config.problem = `it would listen on ${host || 'every interface'} without JUDGEFLOW_TOKEN. Set JUDGEFLOW_TOKEN to require a token, or HOST=127.0.0.1 to serve this machine only.`
  }
  else if (token && token.length < MIN_TOKEN_LENGTH) {
    config.problem = `JUDGEFLOW_TOKEN must be at least ${MIN_TOKEN_LENGTH} characters long; generate one with \`openssl rand -hex 32\`.`
  }
  else if (!(Number.isFinite(ttlHours) && ttlHours > 0 && ttlHours <= 24 * 366)) {
    config.problem = `JUDGEFLOW_SESSION_TTL_HOURS must be a number of hours above 0 and at most ${24 * 366} (default ${DEFAULT_SESSION_TTL_HOURS}).`
  }
  return config
}

let config: AccessConfig | undefined
export const accessConfig = () => (config ??= readAccessConfig())
export const configuredToken = () => accessConfig().token

export function isLoopback(address: string | undefined): boolean {
  if (!address) return false
  const a = address.replace(/^\[|\]$/g, '').toLowerCase()
  return a === 'localhost' || a === '::1' || a.startsWith('127.') || a.startsWith('::ffff:127.')
}

const throttle = new LoginThrottle()
const revoked = new RevokedSessions()
const clientOf = (event: H3Event) => getRequestIP(event) ?? 'unknown'

function waitText(ms: number): string {
  const seconds = Math.ceil(ms / 1000)
  if (seconds < 120) return `${seconds} second${seconds === 1 ? '' : 's'}`
  return `${Math.ceil(seconds / 60)} minutes`
}

/** 429 with Retry-After while this client is locked out after wrong tokens. */
function assertNotLockedOut(event: H3Event): void {
  const waitMs = throttle.retryAfterMs(clientOf(event))
  if (!waitMs) return
  const seconds = Math.ceil(waitMs / 1000)
  throw new JudgeflowError(
    'TOO_MANY_ATTEMPTS',
    `Too many wrong tokens from your address: try again in ${waitText(waitMs)} (after ${new Date(Date.now() + waitMs).toISOString().replace(/\.\d+Z$/, 'Z')}).`,
    { details: { retry_after_s: seconds } },
  )
}

/**
 * Checks a presented token against the configured one, counting a wrong one against the client.
 * `hint` says how long the client must now wait, when this failure started a lock-out.
 */
export function checkToken(event: H3Event, given: string, token: string): { ok: boolean, hint: string } {
  assertNotLockedOut(event)
  if (sameSecret(given, token)) {
    throttle.succeed(clientOf(event))
    return { ok: true, hint: '' }
  }
  const lockMs = throttle.fail(clientOf(event))
  return { ok: false, hint: lockMs ? ` Too many wrong tokens: try again in ${waitText(lockMs)}.` : '' }
}

/** The signed-in session of this request's cookie, or null (none, forged, expired or signed out). */
export function currentSession(event: H3Event, token: string): Session | null {
  const value = getCookie(event, SESSION_COOKIE)
  if (!value || revoked.has(value)) return null
  return verifySession(value, token, accessConfig().sessionTtlMs)
}

export function startSession(event: H3Event, token: string): Session {
  const ttlMs = accessConfig().sessionTtlMs
  const value = issueSession(token, ttlMs)
  setCookie(event, SESSION_COOKIE, value, { httpOnly: true, sameSite: 'strict', path: '/', secure: getRequestProtocol(event) === 'https', maxAge: Math.floor(ttlMs / 1000) })
  return verifySession(value, token, ttlMs)!
}

/** Signs out: the cookie is cleared in the browser and its value refused from now on. */
export function endSession(event: H3Event, token: string | undefined): void {
  const value = getCookie(event, SESSION_COOKIE)
  const session = value && token ? currentSession(event, token) : null
  if (value && session) revoked.add(value, session)
  deleteCookie(event, SESSION_COOKIE, { httpOnly: true, sameSite: 'strict', path: '/', secure: getRequestProtocol(event) === 'https' })
}

export function isAuthenticated(event: H3Event, token: string): boolean {
  if (currentSession(event, token)) return true
  const header = getRequestHeader(event, 'authorization')
  return !!header?.startsWith('Bearer ') && checkToken(event, header.slice(7).trim(), token).ok
}
