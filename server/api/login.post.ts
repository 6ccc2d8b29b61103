import { z } from 'zod'
import { configuredToken, sameSecret, sessionValue, SESSION_COOKIE } from '../utils/access'
import { readBodyWith } from '../utils/http'

/** The login form's target: the right token sets an HttpOnly, SameSite=Strict session cookie. */
export default defineEventHandler(async (event) => {
  const { token } = await readBodyWith(event, z.object({ token: z.string().min(1, 'is required') }))
  const expected = configuredToken()
  if (!expected) return { signed_in: true, note: 'no token is configured: this machine is trusted' }
  if (!sameSecret(token, expected)) throw createError({ statusCode: 401, statusMessage: 'Unauthorized', message: 'That token is not the one this server was started with.' })
  setCookie(event, SESSION_COOKIE, sessionValue(expected), { httpOnly: true, sameSite: 'strict', path: '/', secure: getRequestProtocol(event) === 'https', maxAge: 60 * 60 * 24 * 30 })
  return { signed_in: true }
})
