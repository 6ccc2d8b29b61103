import { z } from 'zod'
import type { StepRegistry } from '~~/engine'
import { useJudgeflow } from '~~/server/utils/context'

/**
 * The answer for each registry, made again only when a step type is added: making the JSON
 * Schemas costs more than the rest of opening the editor.
 */
const described = new WeakMap<StepRegistry, { count: number, steps: unknown }>()

/** The step types the editor can offer, each describing itself with its config's JSON Schema. */
export default defineEventHandler(() => {
  const { registry } = useJudgeflow()
  const all = registry.all()
  let answer = described.get(registry)
  if (answer?.count !== all.length) {
    answer = { count: all.length, steps: all.map(step => ({
      type: step.type,
      label: step.label,
      description: step.description,
      branches: step.branches ?? [],
      config_schema: z.toJSONSchema(step.configSchema, { unrepresentable: 'any', io: 'input' }),
    })) }
    described.set(registry, answer)
  }
  return answer.steps
})
