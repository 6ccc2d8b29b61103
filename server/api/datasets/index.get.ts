import { useJudgeflow } from '../../utils/context'
import { presentDatasetSummary } from '../../utils/datasets'

export default defineEventHandler(async () => {
  return (await useJudgeflow().store.datasets.list()).map(presentDatasetSummary)
})
