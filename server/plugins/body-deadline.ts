import { judgeflowConfig } from '~~/server/utils/config'
import { armBodyDeadline } from '~~/server/utils/request-body'

/**
 * Every request's body must have arrived JUDGEFLOW_BODY_TIMEOUT_MS after its headers, also one
 * that nothing reads because the request was refused first (a 401 before the body): its clock
 * starts here, before any middleware, and past it the connection is closed. A body being read
 * is answered 408 by the body limit (server/middleware/body-limit.ts).
 */
export default defineNitroPlugin((nitroApp) => {
  nitroApp.hooks.hook('request', (event) => {
    armBodyDeadline(event, judgeflowConfig().server.bodyTimeoutMs)
  })
})
