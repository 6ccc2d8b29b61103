import { z } from 'zod'
import { modelRefSchema } from '../../schema/common'
import { defineStep } from '../types'

export const llmConfigSchema = z.object({
  model: modelRefSchema.refine(model => !model.startsWith('local:'), 'local: models are offline judges for evaluator steps, not text models'),
  prompt: z.string().min(1, 'is empty'),
  system: z.string().optional(),
  temperature: z.number().min(0).max(2).optional(),
  max_tokens: z.number().int().positive().max(200_000).optional(),
  /** `false` bypasses the response cache for this step, `true` caches even at a temperature above 0. */
  cache: z.boolean().optional(),
})
export type LlmConfig = z.infer<typeof llmConfigSchema>

export const llmStep = defineStep({
  type: 'llm',
  label: 'LLM',
  description: 'Sends a prompt to a model and returns its text, token usage and latency.',
  configSchema: llmConfigSchema,
  modelOf: config => config.model,
  async run({ config, providers, signal, cache }) {
    const response = await providers.complete(config.model, {
      system: config.system,
      messages: [{ role: 'user', content: config.prompt }],
      temperature: config.temperature,
      max_tokens: config.max_tokens,
      cache: config.cache ?? (cache === false ? false : undefined),
    }, { signal })
    const { text, model, usage, latency_ms, cached } = response
    return { output: { text, model, usage, latency_ms, cached }, usage, cached }
  },
})
