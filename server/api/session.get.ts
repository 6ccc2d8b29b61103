import { configuredToken, currentSession } from '~~/server/utils/access'
import { listedUsers } from '~~/server/utils/people'

/**
 * Whether this server requires a token and whether this browser is signed in (for the Sign out
 * control), as whom (`user`), and the people who may sign in (`users`, JUDGEFLOW_USERS: the login
 * form's and the review page's choice of names; empty when the server lists none).
 */
export default defineEventHandler((event) => {
  const token = configuredToken()
  const users = listedUsers()
  if (!token) return { token_required: false, signed_in: false, expires_at: null, user: null, users }
  const session = currentSession(event, token)
  return { token_required: true, signed_in: !!session, expires_at: session?.expiresAt ?? null, user: session?.user ?? null, users }
})
