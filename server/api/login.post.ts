import { z } from 'zod'
import { JudgeflowError } from '~~/engine'
import { checkToken, configuredToken, startSession } from '~~/server/utils/access'
import { readBodyWith } from '~~/server/utils/http'
import { signInUser } from '~~/server/utils/people'

/**
 * The login form's target: the right token sets an HttpOnly, SameSite=Strict session cookie that
 * the server lets expire; wrong tokens are throttled per client address (429 with Retry-After).
 * When the server lists its people (JUDGEFLOW_USERS), `user` says which one signs in, and the
 * session carries that name under its MAC.
 */
export default defineEventHandler(async (event) => {
  const body = await readBodyWith(event, z.object({ token: z.string().min(1, 'is required'), user: z.string().optional() }))
  const expected = configuredToken()
  if (!expected) return { signed_in: true, note: 'no token is configured: this machine is trusted' }
  const user = signInUser(body.user)
  const { ok, hint } = checkToken(event, body.token, expected)
  if (!ok) throw new JudgeflowError('UNAUTHORIZED', `That token is not the one this server was started with.${hint}`)
  const session = startSession(event, expected, user)
  return { signed_in: true, expires_at: session.expiresAt, user: session.user ?? null }
})
