import { useJudgeflow } from '../../../utils/context'
import { presentDatasetRun } from '../../../utils/datasets'
import { routeId } from '../../../utils/http'

/** The dataset's runs, newest first, without their reports. */
export default defineEventHandler(async (event) => {
  return (await useJudgeflow().store.datasets.runs(routeId(event))).map(presentDatasetRun)
})
