import { useJudgeflow } from '~~/server/utils/context'

export default defineEventHandler(async () => {
  return (await useJudgeflow().store.workflows.list()).map(w => ({
    id: w.id, name: w.name, description: w.description, current_version: w.currentVersion, created_at: w.createdAt, updated_at: w.updatedAt,
  }))
})
