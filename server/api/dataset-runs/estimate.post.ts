import { datasetRunRequestSchema } from '~~/core/datasets'
import { useJudgeflow } from '~~/server/utils/context'
import { readBodyWith } from '~~/server/utils/http'

/** What a dataset run of this request would cost, said before it starts; nothing is started or kept. */
export default defineEventHandler(async (event) => {
  const request = await readBodyWith(event, datasetRunRequestSchema)
  return useJudgeflow().datasets.estimate(request)
})
