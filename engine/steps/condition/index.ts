import { z } from 'zod'
import { defineStep } from '../types'
import { compare, conditionOperators } from './compare'

export const conditionConfigSchema = z.object({
  left: z.unknown(),
  op: z.enum(conditionOperators),
  right: z.unknown().optional(),
  /** For contains and matches. */
  ignore_case: z.boolean().optional(),
})

export const conditionStep = defineStep({
  type: 'condition',
  label: 'Condition',
  description: 'Compares two values and takes the "true" or "false" branch.',
  configSchema: conditionConfigSchema,
  branches: ['true', 'false'],
  branchOf: output => ((output as { result?: unknown } | undefined)?.result ? 'true' : 'false'),
  async run({ config }) {
    const result = compare(config.left, config.op, config.right, { ignoreCase: config.ignore_case })
    return { output: { result }, branch: result ? 'true' : 'false' }
  },
})
