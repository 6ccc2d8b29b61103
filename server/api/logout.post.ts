import { configuredToken, endSession } from '~~/server/utils/access'

/** Signs out: clears the session cookie, which the server refuses from now on even if kept. */
export default defineEventHandler((event) => {
  endSession(event, configuredToken())
  return { signed_in: false }
})
