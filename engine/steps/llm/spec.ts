import { z } from 'zod'
import { longText, modelRefSchema } from '../../schema/common'
import { strictObject } from '../../schema/unknown-keys'
import { defineStepSpec } from '../types'
import { llmOutputs } from './outputs'
import { builtinStepMeta } from '../step-meta'

export const llmSpec = defineStepSpec({
  type: 'llm',
  label: builtinStepMeta.llm.label,
  description: 'Sends a prompt to a model and returns its text, token usage and latency.',
  configSchema: strictObject({
    model: modelRefSchema.refine(model => !model.startsWith('local:'), 'local: models are offline judges for evaluator steps, not text models'),
    prompt: longText(z.string().min(1, 'is empty')),
    system: longText(z.string()).optional(),
    temperature: z.number().min(0).max(2).optional(),
    max_tokens: z.number().int().positive().max(200_000).optional(),
    /**
     * OpenAI's response format for the answer: `{ type: json_object }`, or `{ type: json_schema,
     * json_schema: { name, schema, strict? } }`; the answer stays text.
     */
    response_format: z.discriminatedUnion('type', [
      strictObject({ type: z.literal('text') }),
      strictObject({ type: z.literal('json_object') }),
      strictObject({
        type: z.literal('json_schema'),
        json_schema: strictObject({
          name: z.string().min(1).max(64), schema: z.record(z.string(), z.unknown()), strict: z.boolean().optional(), description: z.string().optional(),
        }),
      }),
    ]).optional(),
    /** `false` bypasses the response cache for this step, `true` caches even at a temperature above 0. */
    cache: z.boolean().optional(),
  }),
  pinnedOptional: builtinStepMeta.llm.pinnedOptional,
  textField: 'text',
  outputs: llmOutputs,
})
