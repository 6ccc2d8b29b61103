import { findTargetWorkflow } from '~~/core'
import { experimentSchema } from '~~/engine/experiments'
import { useJudgeflow } from '~~/server/utils/context'
import { readBodyWith } from '~~/server/utils/http'

/** Creates (or imports) an experiment: documents with answer keys, the step under test, variants. */
export default defineEventHandler(async (event) => {
  const definition = await readBodyWith(event, experimentSchema)
  // A target the server cannot run is refused now, not when its first round fails.
  if (definition.target.workflow_id) await findTargetWorkflow(useJudgeflow().store, definition.target)
  const row = await useJudgeflow().store.experiments.create(definition)
  setResponseStatus(event, 201)
  return { id: row.id, ...definition }
})
