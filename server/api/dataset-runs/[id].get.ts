import { useJudgeflow } from '~~/server/utils/context'
import { presentDatasetRun, reportForPage } from '~~/server/utils/datasets'
import { notFound, routeId } from '~~/server/utils/http'

/** A dataset run: its status and progress (cases done so far), and once finished its report, shaped for the report page. */
export default defineEventHandler(async (event) => {
  const detail = await useJudgeflow().datasets.detail(routeId(event))
  if (!detail) notFound('dataset run', routeId(event))
  return { ...presentDatasetRun(detail.row), progress: detail.progress, report: detail.report && reportForPage(detail.report) }
})
