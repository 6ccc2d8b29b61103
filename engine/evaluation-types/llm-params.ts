import { z } from 'zod'
import { modelRefSchema } from '../schema/common'

/** The judge's LLM parameters, shared by the config's top level, `[llm_default]` and each metric. */
export const llmParams = {
  model: modelRefSchema.optional(),
  /** Accepted with `model` holding only the model name. */
  provider: z.string().regex(/^[a-z][a-z0-9_-]*$/, 'must be a provider id such as openai or anthropic').optional(),
  system_instruction: z.string().max(20_000).optional(),
  temperature: z.number().min(0, 'must not be negative').max(2).optional(),
  max_tokens: z.number().int().positive().optional(),
  max_retries: z.number().int().min(0).max(10).optional(),
}
