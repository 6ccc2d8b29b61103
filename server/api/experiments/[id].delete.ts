import { deleteExperiment } from '../../../db'
import { useJudgeflow } from '../../utils/context'
import { notFound, routeId } from '../../utils/http'

export default defineEventHandler((event) => {
  if (!deleteExperiment(useJudgeflow().handle.db, routeId(event))) notFound('experiment', routeId(event))
  setResponseStatus(event, 204)
  return null
})
