import { workflowSchema } from '~~/engine'
import { useJudgeflow } from '~~/server/utils/context'
import { readBodyWith } from '~~/server/utils/http'
import { presentWorkflow } from '~~/server/utils/present'

/** Creates a workflow (version 1). Engine-level problems are returned, not refused, so drafts can be saved. */
export default defineEventHandler(async (event) => {
  const definition = await readBodyWith(event, workflowSchema)
  const { store, registry, providers } = useJudgeflow()
  const workflow = await store.workflows.create(definition)
  setResponseStatus(event, 201)
  return presentWorkflow(workflow, { registry, providers })
})
