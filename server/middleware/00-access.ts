import { JudgeflowError } from '~~/engine/errors'
import { safeNextPath } from '~~/shared/utils/next-path'
import { configuredToken, isAuthenticated, isLoopbackAddress, isOtlpPath, isPublicPath } from '~~/server/utils/access'
import { allowedHosts, isAllowedHost, ownOrigin } from '~~/server/utils/hosts'

const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE'])

/**
 * Every request: a Host this server does not answer to is refused (DNS rebinding), and so is a
 * state-changing request from another origin (a web page cannot drive the API through the user's
 * browser); without JUDGEFLOW_TOKEN only this machine is served; with it, the API needs the
 * bearer token or the session cookie, and pages send you to /login (and back, when the path is
 * one of this origin's).
 */
export default defineEventHandler((event) => {
  // OTLP exporters send no Accept header: their errors are answered as the API's are, in JSON, not as a page.
  if (isOtlpPath(event)) event.node.req.headers.accept = 'application/json'
  const token = configuredToken()
  const host = getRequestHeader(event, 'host')
  // With a token, a rebinding page cannot sign in, so other names are allowed unless a list is set.
  if ((!token || allowedHosts().length) && !isAllowedHost(host)) {
    throw new JudgeflowError('FORBIDDEN', `Refused: this server does not answer to the host "${host ?? ''}". Add it to JUDGEFLOW_ALLOWED_HOSTS to allow it.`)
  }
  const origin = getRequestHeader(event, 'origin')
  if (origin && STATE_CHANGING.has(event.method) && origin.toLowerCase() !== ownOrigin(event)) {
    throw new JudgeflowError('FORBIDDEN', `Refused: a ${event.method} from another origin (${origin}).`)
  }
  if (!token) {
    if (!isLoopbackAddress(event.node.req.socket.remoteAddress)) {
      throw new JudgeflowError('FORBIDDEN', 'judgeflow serves only this machine; set JUDGEFLOW_TOKEN to serve others.')
    }
    return
  }
  if (isPublicPath(event) || isAuthenticated(event, token)) return
  if (event.path.startsWith('/api/') || isOtlpPath(event)) {
    setResponseHeader(event, 'www-authenticate', 'Bearer realm="judgeflow"')
    throw new JudgeflowError('UNAUTHORIZED', 'Sign in: send "Authorization: Bearer <JUDGEFLOW_TOKEN>", or sign in at /login.')
  }
  return sendRedirect(event, `/login?next=${encodeURIComponent(safeNextPath(event.path))}`, 302)
})
