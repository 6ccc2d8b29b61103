import { z } from 'zod'
import { JudgeflowError } from '~~/engine'
import { checkToken, configuredToken, startSession } from '~~/server/utils/access'
import { readBodyWith } from '~~/server/utils/http'

/**
 * The login form's target: the right token sets an HttpOnly, SameSite=Strict session cookie that
 * the server lets expire; wrong tokens are throttled per client address (429 with Retry-After).
 */
export default defineEventHandler(async (event) => {
  const { token } = await readBodyWith(event, z.object({ token: z.string().min(1, 'is required') }))
  const expected = configuredToken()
  if (!expected) return { signed_in: true, note: 'no token is configured: this machine is trusted' }
  const { ok, hint } = checkToken(event, token, expected)
  if (!ok) throw new JudgeflowError('UNAUTHORIZED', `That token is not the one this server was started with.${hint}`)
  return { signed_in: true, expires_at: startSession(event, expected).expiresAt }
})
