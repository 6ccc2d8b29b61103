import { experimentSchema } from '~~/engine/experiments'
import { useJudgeflow } from '~~/server/utils/context'
import { notFound, readBodyWith, routeId } from '~~/server/utils/http'

export default defineEventHandler(async (event) => {
  const definition = await readBodyWith(event, experimentSchema)
  if (!await useJudgeflow().store.experiments.update(routeId(event), definition)) notFound('experiment', routeId(event))
  return { id: routeId(event), ...definition }
})
