import { configuredToken, currentSession } from '~~/server/utils/access'

/** Whether this server requires a token and whether this browser is signed in (for the Sign out control). */
export default defineEventHandler((event) => {
  const token = configuredToken()
  if (!token) return { token_required: false, signed_in: false, expires_at: null }
  const session = currentSession(event, token)
  return { token_required: true, signed_in: !!session, expires_at: session?.expiresAt ?? null }
})
