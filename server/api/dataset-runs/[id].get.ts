import { useJudgeflow } from '../../utils/context'
import { presentDatasetRun } from '../../utils/datasets'
import { notFound, routeId } from '../../utils/http'

/** A dataset run: its status and progress (cases done so far), and its report once finished. */
export default defineEventHandler(async (event) => {
  const { store, datasets } = useJudgeflow()
  const row = await store.datasets.getRun(routeId(event))
  if (!row) notFound('dataset run', routeId(event))
  const progress = await datasets.progressOf(row)
  return { ...presentDatasetRun(row), progress, report: row.report }
})
