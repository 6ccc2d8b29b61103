import { z } from 'zod'
import { retentionNote } from '~~/core'
import { useJudgeflow } from '~~/server/utils/context'
import { jsonAnswer, notFound, readParamsWith, routeId } from '~~/server/utils/http'
import { wholeNumber } from '~~/server/utils/parameters'

const paramsSchema = z.object({
  node: z.string().min(1),
  attempt: wholeNumber(),
  field: z.enum(['input', 'output']),
})

/** A step's whole input or output at one attempt: where a run's answer links a value too large to carry. */
export default defineEventHandler(async (event) => {
  const { node, attempt, field } = await readParamsWith(event, paramsSchema)
  const { store, config } = useJudgeflow()
  const stored = await store.runs.value(routeId(event), { nodeId: node, attempt, field })
  if (!stored) notFound('step attempt', `${routeId(event)}/${node}/${attempt}`, retentionNote(config.retention))
  return jsonAnswer(event, stored.value)
})
