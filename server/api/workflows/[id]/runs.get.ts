import { z } from 'zod'
import { useJudgeflow } from '~~/server/utils/context'
import { notFound, readQueryWith, routeId } from '~~/server/utils/http'
import { wholeNumber } from '~~/server/utils/parameters'
import { presentRunSummary } from '~~/server/utils/present'

const querySchema = z.object({
  limit: wholeNumber({ max: 500 }).default(50),
  before: wholeNumber({ max: Number.MAX_SAFE_INTEGER }).optional(),
})

/** The workflow's runs, newest first, as summaries; `before` (a created_at) pages back. */
export default defineEventHandler(async (event) => {
  const query = await readQueryWith(event, querySchema)
  const { store } = useJudgeflow()
  if (!await store.workflows.get(routeId(event))) notFound('workflow', routeId(event))
  return (await store.runs.list(routeId(event), query)).map(run => presentRunSummary(run))
})
