import { useJudgeflow } from '~~/server/utils/context'
import { notFound, routeId } from '~~/server/utils/http'

/** Deletes an online rule with its decisions (the spans stay). */
export default defineEventHandler(async (event) => {
  const id = routeId(event)
  if (!(await useJudgeflow().store.online.deleteRule(id))) notFound('online rule', id)
  setResponseStatus(event, 204)
  return null
})
