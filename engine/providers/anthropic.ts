import type Anthropic from '@anthropic-ai/sdk'
import { JudgeflowError } from '../errors'
import { PROVIDER_KEY_VARIABLES } from './models'
import { lazySdkClient } from './sdk'
import { refusesStructuredOutput, withSchemaInPrompt } from './structured'
import type { ProviderAdapter } from './types'

const DEFAULT_MAX_TOKENS = 4096

/** Anthropic Messages; structured output is a forced tool call whose input is the JSON. */
export function createAnthropicAdapter(env: Record<string, string | undefined>): ProviderAdapter {
  const getClient = lazySdkClient(async () => (await import('@anthropic-ai/sdk')).default, env, 'ANTHROPIC')
  /** Models whose server refused the tool call: asked in plain text with the schema in the prompt. */
  const refusingTools = new Set<string>()
  return {
    id: 'anthropic',
    keyVariable: PROVIDER_KEY_VARIABLES.anthropic,
    async send(model, request, { signal }) {
      if (request.response_format) throw new JudgeflowError('INVALID_CONFIG', `anthropic:${model} has no response_format: remove it from the LLM step, or ask for JSON in the prompt`)
      const ask = async (viaTool: boolean) => {
        const schema = request.json_schema
        const system = schema && !viaTool ? withSchemaInPrompt(request.system, schema) : request.system
        const message = await (await getClient()).messages.create({
          model,
          max_tokens: request.max_tokens ?? DEFAULT_MAX_TOKENS,
          messages: request.messages,
          ...(system ? { system } : {}),
          ...(request.temperature === undefined ? {} : { temperature: Math.min(1, request.temperature) }),
          ...(schema && viaTool
            ? {
                tools: [{ name: schema.name, description: 'Return the answer in this exact shape.', input_schema: schema.schema as Anthropic.Tool.InputSchema }],
                tool_choice: { type: 'tool' as const, name: schema.name },
              }
            : {}),
        }, { signal })
        const usage = { input_tokens: message.usage?.input_tokens ?? 0, output_tokens: message.usage?.output_tokens ?? 0 }
        const call = message.content.find(block => block.type === 'tool_use')
        if (schema && call?.type === 'tool_use') return { text: JSON.stringify(call.input), json: call.input, structured: 'tool' as const, model: message.model || model, usage }
        // No tool call (a compatible server that ignores tools): the judge reads the JSON from the text.
        const text = message.content.map(block => (block.type === 'text' ? block.text : '')).join('')
        return { text, ...(schema ? { structured: 'text' as const } : {}), model: message.model || model, usage }
      }
      if (!request.json_schema || !refusingTools.has(model)) {
        try {
          return await ask(!!request.json_schema)
        }
        catch (error) {
          if (!request.json_schema || !refusesStructuredOutput(error)) throw error
          refusingTools.add(model)
        }
      }
      return ask(false)
    },
  }
}
