import { JudgeflowError } from '~~/engine'
import { useJudgeflow } from '~~/server/utils/context'
import { notFound, routeId } from '~~/server/utils/http'

/** Cancels a dataset run going on: no case starts after, those in flight are cancelled; it ends with what was done. */
export default defineEventHandler(async (event) => {
  const { store, datasets } = useJudgeflow()
  const row = await store.datasets.getRun(routeId(event))
  if (!row) notFound('dataset run', routeId(event))
  if (!datasets.cancel(row.id)) throw new JudgeflowError('NOT_CANCELLABLE', `Dataset run "${row.id}" is ${row.status}: there is nothing to cancel.`)
  setResponseStatus(event, 202)
  return { id: row.id, status: 'cancelling' }
})
