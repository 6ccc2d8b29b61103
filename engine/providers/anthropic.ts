import type Anthropic from '@anthropic-ai/sdk'
import { JudgeflowError } from '../errors'
import { lazySdkClient } from './sdk'
import type { ProviderAdapter } from './types'

const DEFAULT_MAX_TOKENS = 4096

/** Anthropic Messages; structured output is a forced tool call whose input is the JSON. */
export function createAnthropicAdapter(env: Record<string, string | undefined>): ProviderAdapter {
  const getClient = lazySdkClient(async () => (await import('@anthropic-ai/sdk')).default, env, 'ANTHROPIC')
  return {
    id: 'anthropic',
    keyVariable: 'ANTHROPIC_API_KEY',
    async send(model, request, { signal }) {
      if (request.response_format) throw new JudgeflowError('INVALID_CONFIG', `anthropic:${model} has no response_format: remove it from the LLM step, or ask for JSON in the prompt`)
      const schema = request.json_schema
      const message = await (await getClient()).messages.create({
        model,
        max_tokens: request.max_tokens ?? DEFAULT_MAX_TOKENS,
        messages: request.messages,
        ...(request.system ? { system: request.system } : {}),
        ...(request.temperature === undefined ? {} : { temperature: Math.min(1, request.temperature) }),
        ...(schema
          ? {
              tools: [{ name: schema.name, description: 'Return the answer in this exact shape.', input_schema: schema.schema as Anthropic.Tool.InputSchema }],
              tool_choice: { type: 'tool' as const, name: schema.name },
            }
          : {}),
      }, { signal })
      const usage = { input_tokens: message.usage?.input_tokens ?? 0, output_tokens: message.usage?.output_tokens ?? 0 }
      if (schema) {
        const call = message.content.find(block => block.type === 'tool_use')
        if (!call || call.type !== 'tool_use') {
          throw new JudgeflowError('PROVIDER_RESPONSE_INVALID', `anthropic:${model} did not call the ${schema.name} tool`, { category: 'provider' })
        }
        return { text: JSON.stringify(call.input), json: call.input, model: message.model || model, usage }
      }
      const text = message.content.map(block => (block.type === 'text' ? block.text : '')).join('')
      return { text, model: message.model || model, usage }
    },
  }
}
