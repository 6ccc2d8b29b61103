import { getRun } from '../../../../db'
import { useJudgeflow } from '../../../utils/context'
import { notFound, routeId } from '../../../utils/http'

/** Cancels a queued or running run; running steps get the abort signal. */
export default defineEventHandler((event) => {
  const { handle, runs } = useJudgeflow()
  const run = getRun(handle.db, routeId(event))
  if (!run) notFound('run', routeId(event))
  if (!runs.cancel(run.id)) {
    throw createError({ statusCode: 409, statusMessage: 'Conflict', message: `Run "${run.id}" is ${run.status} and cannot be cancelled.` })
  }
  setResponseStatus(event, 202)
  return { id: run.id, cancelling: true }
})
