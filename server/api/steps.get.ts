import { z } from 'zod'
import { useJudgeflow } from '../utils/context'

/** The step types the editor can offer, each describing itself with its config's JSON Schema. */
export default defineEventHandler(() => {
  return useJudgeflow().registry.all().map(step => ({
    type: step.type,
    label: step.label,
    description: step.description,
    branches: step.branches ?? [],
    config_schema: z.toJSONSchema(step.configSchema, { unrepresentable: 'any', io: 'input' }),
  }))
})
