import { z } from 'zod'
import { getWorkflow, listRuns } from '../../../../db'
import { useJudgeflow } from '../../../utils/context'
import { notFound, readQueryWith, routeId } from '../../../utils/http'
import { presentRunSummary } from '../../../utils/present'

const querySchema = z.object({
  limit: z.coerce.number().int().min(1).max(500).default(50),
  before: z.coerce.number().int().positive().optional(),
})

/** The workflow's runs, newest first, as summaries; `before` (a created_at) pages back. */
export default defineEventHandler(async (event) => {
  const query = await readQueryWith(event, querySchema)
  const { db } = useJudgeflow().handle
  if (!getWorkflow(db, routeId(event))) notFound('workflow', routeId(event))
  return listRuns(db, routeId(event), query).map(run => presentRunSummary(run))
})
