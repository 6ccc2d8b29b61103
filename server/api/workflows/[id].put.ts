import { updateWorkflow } from '../../../db'
import { workflowSchema } from '../../../engine'
import { useJudgeflow } from '../../utils/context'
import { notFound, readBodyWith, routeId } from '../../utils/http'
import { presentWorkflow } from '../../utils/present'

/** Saves a new version; runs keep the version they ran. */
export default defineEventHandler(async (event) => {
  const definition = await readBodyWith(event, workflowSchema)
  const { handle, registry } = useJudgeflow()
  const workflow = updateWorkflow(handle.db, routeId(event), definition)
  if (!workflow) notFound('workflow', routeId(event))
  return presentWorkflow(workflow, registry)
})
