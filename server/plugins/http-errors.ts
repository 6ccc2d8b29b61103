import { httpAnswerFor } from '~~/server/utils/http-errors'
import { ifMatchVersions } from '~~/server/utils/versions'

/**
 * Every route and middleware throws JudgeflowErrors; here, in one place, each becomes the HTTP
 * error its code and category say (server/utils/http-errors.ts), before h3 handles it. It is done
 * around the app's handler, as Nitro itself wraps it for its async context, rather than in an
 * `errorHandler`: h3 turns a thrown error into an H3Error whose cause is the thrown error's own
 * cause when it has one, so a handler would no longer see the JudgeflowError. From here on the
 * error is answered as any H3Error: JSON for the API, Nuxt's error page for a page.
 */
export default defineNitroPlugin(({ h3App }) => {
  const handle = h3App.handler
  h3App.handler = async (event) => {
    try {
      return await handle(event)
    }
    catch (error) {
      const answer = httpAnswerFor(error, { ifMatch: ifMatchVersions(event) })
      if (!answer) throw error
      for (const [name, value] of Object.entries(answer.headers ?? {})) setResponseHeader(event, name, value)
      throw createError({ statusCode: answer.statusCode, statusMessage: answer.statusMessage, message: (error as Error).message, data: answer.data })
    }
  }
})
