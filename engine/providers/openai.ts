import type OpenAI from 'openai'
import { JudgeflowError } from '../errors'
import { lazySdkClient } from './sdk'
import type { ProviderAdapter } from './types'

/** OpenAI Chat Completions, or any compatible server (Ollama, vLLM, LM Studio, llama.cpp) via OPENAI_BASE_URL. */
export function createOpenAIAdapter(env: Record<string, string | undefined>): ProviderAdapter {
  const getClient = lazySdkClient(async () => (await import('openai')).default, env, 'OPENAI')
  return {
    id: 'openai',
    keyVariable: 'OPENAI_API_KEY',
    async send(model, request, { signal }) {
      const messages: OpenAI.Chat.ChatCompletionMessageParam[] = []
      if (request.system) messages.push({ role: 'system', content: request.system })
      messages.push(...request.messages)
      const completion = await (await getClient()).chat.completions.create({
        model,
        messages,
        ...(request.temperature === undefined ? {} : { temperature: request.temperature }),
        ...(request.max_tokens === undefined ? {} : { max_tokens: request.max_tokens }),
        ...(request.json_schema
          ? { response_format: { type: 'json_schema', json_schema: { name: request.json_schema.name, schema: request.json_schema.schema, strict: true } } }
          : request.response_format ? { response_format: request.response_format as unknown as OpenAI.Chat.ChatCompletionCreateParams['response_format'] } : {}),
      }, { signal })
      const choice = completion.choices?.[0]
      if (!choice) throw new JudgeflowError('PROVIDER_RESPONSE_INVALID', `openai:${model} returned no choices`, { category: 'provider' })
      if (choice.message.refusal) throw new JudgeflowError('PROVIDER_RESPONSE_INVALID', `openai:${model} refused: ${choice.message.refusal}`, { category: 'provider' })
      const text = choice.message.content ?? ''
      return {
        text,
        ...(request.json_schema ? { json: parseJson(text, `openai:${model}`) } : {}),
        model: completion.model || model,
        usage: { input_tokens: completion.usage?.prompt_tokens ?? 0, output_tokens: completion.usage?.completion_tokens ?? 0 },
      }
    },
    async embed(model, texts, { signal }) {
      const answer = await (await getClient()).embeddings.create({ model, input: texts, encoding_format: 'float' }, { signal })
      const vectors = [...answer.data ?? []].sort((a, b) => a.index - b.index).map(item => item.embedding)
      if (vectors.length !== texts.length || vectors.some(v => !Array.isArray(v) || v.some(x => typeof x !== 'number'))) {
        throw new JudgeflowError('PROVIDER_RESPONSE_INVALID', `openai:${model} returned ${vectors.length} embeddings for ${texts.length} texts`, { category: 'provider' })
      }
      return vectors
    },
  }
}

export function parseJson(text: string, modelRef: string): unknown {
  try {
    return JSON.parse(text)
  }
  catch {
    throw new JudgeflowError('PROVIDER_RESPONSE_INVALID', `${modelRef} returned text that is not valid JSON: ${text.slice(0, 200)}`, { category: 'provider' })
  }
}
