import type { H3Event } from 'h3'
import { JudgeflowError } from '~~/engine/errors'
import { accessProblem, DEFAULT_SESSION_TTL_HOURS, isLoopbackAddress, isLoopbackHost, MIN_TOKEN_LENGTH } from '~~/core/config'
import { clientAddress } from './clients'
import { judgeflowConfig } from './config'
import { LoginThrottle } from './login-throttle'
import { issueSession, RevokedSessions, sameSecret, verifySession, type Session } from './session'

/**
 * The access model: on loopback (the default) the machine's own user is trusted; on any other
 * address JUDGEFLOW_TOKEN is required — a bearer header for the API, or the session cookie the
 * login form sets for the UI. The token itself is never stored in the cookie, and wrong tokens
 * are throttled per client address (the right one always gets in).
 */
export const SESSION_COOKIE = 'judgeflow_session'
export { DEFAULT_SESSION_TTL_HOURS, isLoopbackAddress, isLoopbackHost, MIN_TOKEN_LENGTH }

export interface AccessConfig {
  token?: string
  sessionTtlMs: number
  /** Why the server must not start with these settings, in one sentence. */
  problem?: string
}

/** The token and session lifetime (checked by the configuration), and whether the listening address needs a token it lacks. */
export function accessConfig(): AccessConfig {
  const config = judgeflowConfig()
  return { token: config.server.token, sessionTtlMs: config.server.sessionTtlMs, problem: accessProblem(config) }
}

export const configuredToken = () => judgeflowConfig().server.token

/** Reachable without signing in: the login page and what it needs, signing out, and the health check. */
const PUBLIC = [/^\/login\/?$/, /^\/api\/(login|logout|session)$/, /^\/api\/health$/, /^\/_nuxt\//, /^\/favicon\.ico$/]

/** Whether the request's path is served to anyone, signed in or not. */
export function isPublicPath(event: H3Event): boolean {
  const path = event.path.split('?')[0]!
  return PUBLIC.some(re => re.test(path))
}

/** OTLP/HTTP's paths (`/v1/traces`): an API, signed in as the API is, that exporters call. */
export function isOtlpPath(event: H3Event): boolean {
  return event.path.startsWith('/v1/')
}

const throttle = new LoginThrottle()
const revoked = new RevokedSessions()

function waitText(ms: number): string {
  const seconds = Math.ceil(ms / 1000)
  if (seconds < 120) return `${seconds} second${seconds === 1 ? '' : 's'}`
  return `${Math.ceil(seconds / 60)} minutes`
}

/** 429 with Retry-After for a wrong token while this client is locked out after wrong tokens. */
function assertNotLockedOut(event: H3Event): void {
  const waitMs = throttle.retryAfterMs(clientAddress(event))
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
 * The right token is never refused, even from an address locked out: wrong tokens from others
 * behind the same address (a proxy, a NAT) must not lock the owner out. `hint` says how long the
 * client must now wait, when this failure started a lock-out.
 */
export function checkToken(event: H3Event, given: string, token: string): { ok: boolean, hint: string } {
  if (sameSecret(given, token)) {
    throttle.succeed(clientAddress(event))
    return { ok: true, hint: '' }
  }
  assertNotLockedOut(event)
  const lockMs = throttle.fail(clientAddress(event))
  return { ok: false, hint: lockMs ? ` Too many wrong tokens: try again in ${waitText(lockMs)}.` : '' }
}

/**
 * The signed-in session of this request's cookie, or null (none, forged, expired or signed out, or
 * signed in as a person JUDGEFLOW_USERS no longer lists: taking a name off the list ends their sessions).
 */
export function currentSession(event: H3Event, token: string): Session | null {
  const value = getCookie(event, SESSION_COOKIE)
  if (!value || revoked.has(value)) return null
  const { sessionTtlMs, users } = judgeflowConfig().server
  const session = verifySession(value, token, sessionTtlMs)
  return session?.user === undefined || users.includes(session.user) ? session : null
}

/** Signs in (as `user`, one of JUDGEFLOW_USERS, when the server lists its people): sets the session cookie. */
export function startSession(event: H3Event, token: string, user?: string): Session {
  const ttlMs = judgeflowConfig().server.sessionTtlMs
  const value = issueSession(token, ttlMs, Date.now(), user)
  setCookie(event, SESSION_COOKIE, value, { httpOnly: true, sameSite: 'strict', path: '/', secure: getRequestProtocol(event) === 'https', maxAge: Math.floor(ttlMs / 1000) })
  return verifySession(value, token, ttlMs)!
}

/** Who this request's session signed in as (a name of JUDGEFLOW_USERS), or undefined: no token, no session, or a session of no one by name. */
export function sessionUser(event: H3Event): string | undefined {
  const token = configuredToken()
  return token ? currentSession(event, token)?.user : undefined
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
