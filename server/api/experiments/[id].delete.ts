import { useJudgeflow } from '~~/server/utils/context'
import { notFound, routeId } from '~~/server/utils/http'

export default defineEventHandler(async (event) => {
  if (!await useJudgeflow().store.experiments.delete(routeId(event))) notFound('experiment', routeId(event))
  setResponseStatus(event, 204)
  return null
})
