import { listWorkflows } from '../../../db'
import { useJudgeflow } from '../../utils/context'

export default defineEventHandler(() => {
  return listWorkflows(useJudgeflow().handle.db).map(w => ({
    id: w.id, name: w.name, description: w.description, current_version: w.currentVersion, created_at: w.createdAt, updated_at: w.updatedAt,
  }))
})
