import { z } from 'zod'
import { useJudgeflow } from '~~/server/utils/context'
import { notFound, readQueryWith, routeId } from '~~/server/utils/http'
import { wholeNumber } from '~~/server/utils/parameters'
import { presentWorkflow } from '~~/server/utils/present'
import { etagOf } from '~~/server/utils/versions'

const querySchema = z.object({ version: wholeNumber().optional() })

export default defineEventHandler(async (event) => {
  const { version } = await readQueryWith(event, querySchema)
  const { store, registry, providers } = useJudgeflow()
  const workflow = await store.workflows.get(routeId(event), version)
  if (!workflow) notFound(version ? `version ${version} of a workflow` : 'workflow', routeId(event))
  // The version as an entity tag: send it back in If-Match to save only over this version.
  setResponseHeader(event, 'etag', etagOf(workflow.version))
  return presentWorkflow(workflow, { registry, providers })
})
