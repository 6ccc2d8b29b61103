import { z } from 'zod'
import { defineStep } from '../types'

export const outputConfigSchema = z.object({
  verdict: z.enum(['pass', 'fail']).optional(),
  value: z.unknown().optional(),
})

export const outputStep = defineStep({
  type: 'output',
  label: 'Output',
  description: 'Ends a branch with the run\'s value and, optionally, a pass or fail verdict.',
  configSchema: outputConfigSchema,
  async run({ config }) {
    return { output: { verdict: config.verdict ?? null, value: config.value ?? null } }
  },
})
