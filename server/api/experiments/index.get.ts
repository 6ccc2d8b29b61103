import { useJudgeflow } from '~~/server/utils/context'

export default defineEventHandler(async () => {
  const experiments = await useJudgeflow().store.experiments.list()
  return experiments.map(e => ({ id: e.id, name: e.name, current_best: e.currentBest, updated_at: e.updatedAt }))
})
