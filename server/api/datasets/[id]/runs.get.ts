import { useJudgeflow } from '~~/server/utils/context'
import { presentDatasetRun } from '~~/server/utils/datasets'
import { routeId } from '~~/server/utils/http'

/** The dataset's runs, newest first, without their reports. */
export default defineEventHandler(async (event) => {
  return (await useJudgeflow().store.datasets.runs(routeId(event))).map(presentDatasetRun)
})
