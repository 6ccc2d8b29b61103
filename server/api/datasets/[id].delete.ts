import { JudgeflowError } from '~~/engine'
import { useJudgeflow } from '~~/server/utils/context'
import { notFound, routeId } from '~~/server/utils/http'

/** Deletes the dataset with its versions and dataset runs (not while one of them goes on). */
export default defineEventHandler(async (event) => {
  const { store, datasets } = useJudgeflow()
  const id = routeId(event)
  const going = (await store.datasets.runs(id)).filter(run => datasets.progress(run.id))
  if (going.length) throw new JudgeflowError('CONFLICT', `Dataset run ${going.map(r => r.id).join(', ')} of this dataset is going on: cancel it first.`)
  if (!(await store.datasets.delete(id))) notFound('dataset', id)
  setResponseStatus(event, 204)
  return null
})
