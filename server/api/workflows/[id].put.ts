import { z } from 'zod'
import { workflowSchema } from '~~/engine'
import { useJudgeflow } from '~~/server/utils/context'
import { notFound, readBodyWith, routeId } from '~~/server/utils/http'
import { presentWorkflow } from '~~/server/utils/present'
import { acceptedVersions, etagOf, ifMatchVersions } from '~~/server/utils/versions'

/** The definition, plus the version it was edited from (not stored). */
const updateSchema = workflowSchema.extend({ base_version: z.number().int().positive().optional() })

/**
 * Saves a new version; runs keep the version they ran. With If-Match or base_version, a save
 * based on an older version is refused (412 or 409, with the current version); without either,
 * the last write wins.
 */
export default defineEventHandler(async (event) => {
  const { base_version, ...definition } = await readBodyWith(event, updateSchema)
  const ifMatch = ifMatchVersions(event)
  const { store, registry, providers } = useJudgeflow()
  const workflow = await store.workflows.update(routeId(event), definition, { baseVersions: acceptedVersions(ifMatch, base_version) })
  if (!workflow) notFound('workflow', routeId(event))
  setResponseHeader(event, 'etag', etagOf(workflow.version))
  return presentWorkflow(workflow, { registry, providers })
})
