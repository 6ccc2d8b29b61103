import { useJudgeflow } from '~~/server/utils/context'
import { notFound, routeId } from '~~/server/utils/http'

/** The workflow file, as `judgeflow run` and import take it. */
export default defineEventHandler(async (event) => {
  const workflow = await useJudgeflow().store.workflows.get(routeId(event))
  if (!workflow) notFound('workflow', routeId(event))
  const filename = `${workflow.name.replace(/[^\w.-]+/g, '-').replace(/^-|-$/g, '') || 'workflow'}.json`
  setResponseHeader(event, 'content-disposition', `attachment; filename="${filename}"`)
  return workflow.definition
})
