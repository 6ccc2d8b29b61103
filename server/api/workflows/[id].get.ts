import { z } from 'zod'
import { getWorkflow } from '../../../db'
import { useJudgeflow } from '../../utils/context'
import { notFound, readQueryWith, routeId } from '../../utils/http'
import { presentWorkflow } from '../../utils/present'

const querySchema = z.object({ version: z.coerce.number().int().positive().optional() })

export default defineEventHandler(async (event) => {
  const { version } = await readQueryWith(event, querySchema)
  const { handle, registry } = useJudgeflow()
  const workflow = getWorkflow(handle.db, routeId(event), version)
  if (!workflow) notFound(version ? `version ${version} of a workflow` : 'workflow', routeId(event))
  return presentWorkflow(workflow, registry)
})
