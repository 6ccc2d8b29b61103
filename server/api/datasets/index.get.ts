import { useJudgeflow } from '~~/server/utils/context'
import { presentDatasetSummary } from '~~/server/utils/datasets'

export default defineEventHandler(async () => {
  return (await useJudgeflow().store.datasets.list()).map(presentDatasetSummary)
})
