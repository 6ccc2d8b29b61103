import { useJudgeflow } from '~~/server/utils/context'
import { readBodyWith } from '~~/server/utils/http'
import { httpTestBodySchema, sendTestRequest } from '~~/server/utils/http-test'

/**
 * The editor's "Send test request": one call with an http step's config under this server's
 * policy (JUDGEFLOW_HTTP_ALLOW, JUDGEFLOW_HTTP_ENV); its status, latency and answer, or why it failed.
 */
export default defineEventHandler(async (event) => {
  const body = await readBodyWith(event, httpTestBodySchema)
  const app = useJudgeflow()
  return await sendTestRequest(body.config, body.input, { http: app.config.http, providers: app.providers })
})
