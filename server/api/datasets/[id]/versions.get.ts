import { useJudgeflow } from '~~/server/utils/context'
import { notFound, routeId } from '~~/server/utils/http'

export default defineEventHandler(async (event) => {
  const versions = await useJudgeflow().store.datasets.versions(routeId(event))
  if (!versions.length) notFound('dataset', routeId(event))
  return versions.map(v => ({ version: v.version, case_count: v.caseCount, created_at: v.createdAt }))
})
