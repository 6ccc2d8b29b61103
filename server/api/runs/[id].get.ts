import { retentionNote } from '~~/core'
import { RESPONSE_LIMITS } from '~~/engine'
import { useJudgeflow } from '~~/server/utils/context'
import { notFound, routeId } from '~~/server/utils/http'
import { presentRun } from '~~/server/utils/present'

/**
 * A run with every step's input, output, error, attempts, timings and usage. Values past the
 * answer's limits (RESPONSE_LIMITS) are markers with their size, start and the address of the whole value.
 */
export default defineEventHandler(async (event) => {
  const { store, config } = useJudgeflow()
  const view = await store.runs.view(routeId(event), RESPONSE_LIMITS)
  if (!view) notFound('run', routeId(event), retentionNote(config.retention))
  return presentRun(view.run, view.steps)
})
