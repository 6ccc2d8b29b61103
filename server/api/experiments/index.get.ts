import { listExperiments } from '../../../db'
import { useJudgeflow } from '../../utils/context'

export default defineEventHandler(() => listExperiments(useJudgeflow().handle.db).map(e => ({ id: e.id, name: e.name, current_best: e.currentBest, updated_at: e.updatedAt })))
