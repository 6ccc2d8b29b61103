import { z } from 'zod'
import { retentionNote } from '~~/core'
import { useJudgeflow } from '~~/server/utils/context'
import { jsonAnswer, notFound, readParamsWith, routeId } from '~~/server/utils/http'

const paramsSchema = z.object({ field: z.enum(['input', 'output']) })

/** The run's whole input or output: where a run's answer links a value too large to carry. */
export default defineEventHandler(async (event) => {
  const { field } = await readParamsWith(event, paramsSchema)
  const { store, config } = useJudgeflow()
  const stored = await store.runs.value(routeId(event), { field })
  if (!stored) notFound('run', routeId(event), retentionNote(config.retention))
  return jsonAnswer(event, stored.value)
})
