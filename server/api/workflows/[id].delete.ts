import { deleteWorkflow } from '../../../db'
import { useJudgeflow } from '../../utils/context'
import { notFound, routeId } from '../../utils/http'

export default defineEventHandler((event) => {
  if (!deleteWorkflow(useJudgeflow().handle.db, routeId(event))) notFound('workflow', routeId(event))
  setResponseStatus(event, 204)
  return null
})
