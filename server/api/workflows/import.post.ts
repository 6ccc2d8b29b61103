import { createWorkflow } from '../../../db'
import { workflowSchema } from '../../../engine'
import { useJudgeflow } from '../../utils/context'
import { readBodyWith } from '../../utils/http'
import { presentWorkflow } from '../../utils/present'

/** Imports a workflow file (the JSON that export returns) as a new workflow. */
export default defineEventHandler(async (event) => {
  const definition = await readBodyWith(event, workflowSchema)
  const { handle, registry } = useJudgeflow()
  setResponseStatus(event, 201)
  return presentWorkflow(createWorkflow(handle.db, definition), registry)
})
