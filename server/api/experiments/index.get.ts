import { useJudgeflow } from '../../utils/context'

export default defineEventHandler(async () => (await useJudgeflow().store.experiments.list()).map(e => ({ id: e.id, name: e.name, current_best: e.currentBest, updated_at: e.updatedAt })))
