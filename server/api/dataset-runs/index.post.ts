import { datasetRunRequestSchema } from '~~/core/datasets'
import { useJudgeflow } from '~~/server/utils/context'
import { presentDatasetRun } from '~~/server/utils/datasets'
import { readBodyWith } from '~~/server/utils/http'

/** Starts a dataset run: a workflow, or an evaluator config alone, over every case. It goes on in the background. */
export default defineEventHandler(async (event) => {
  const request = await readBodyWith(event, datasetRunRequestSchema)
  const row = await useJudgeflow().datasets.start(request)
  setResponseStatus(event, 202)
  return presentDatasetRun(row)
})
