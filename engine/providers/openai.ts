import type OpenAI from 'openai'
import { JudgeflowError } from '../errors'
import { MAX_VALUE_DEPTH, parseJsonWithin } from '../text/safe-json'
import { PROVIDER_KEY_VARIABLES } from './models'
import { lazySdkClient } from './sdk'
import { refusesStructuredOutput, withSchemaInPrompt } from './structured'
import type { ChatRequest, ProviderAdapter, StructuredOutput } from './types'

/** OpenAI Chat Completions, or any compatible server (Ollama, vLLM, LM Studio, llama.cpp) via OPENAI_BASE_URL. */
export function createOpenAIAdapter(env: Record<string, string | undefined>): ProviderAdapter {
  const getClient = lazySdkClient(async () => (await import('openai')).default, env, 'OPENAI')
  /** Models whose server refused a way of structured output: the way that worked instead. */
  const structuredFor = new Map<string, OpenAIStructured>()
  return {
    id: 'openai',
    keyVariable: PROVIDER_KEY_VARIABLES.openai,
    async send(model, request, { signal }) {
      const ask = async (structured?: OpenAIStructured) => {
        const schema = request.json_schema
        const messages: OpenAI.Chat.ChatCompletionMessageParam[] = []
        const system = schema && structured !== 'json_schema' ? withSchemaInPrompt(request.system, schema) : request.system
        if (system) messages.push({ role: 'system', content: system })
        messages.push(...request.messages)
        const completion = await (await getClient()).chat.completions.create({
          model,
          messages,
          ...(request.temperature === undefined ? {} : { temperature: request.temperature }),
          ...(request.max_tokens === undefined ? {} : { max_tokens: request.max_tokens }),
          ...responseFormat(request, structured),
        }, { signal })
        const choice = completion.choices?.[0]
        if (!choice) throw new JudgeflowError('PROVIDER_RESPONSE_INVALID', `openai:${model} returned no choices`, { category: 'provider' })
        if (choice.message.refusal) throw new JudgeflowError('PROVIDER_RESPONSE_INVALID', `openai:${model} refused: ${choice.message.refusal}`, { category: 'provider' })
        const text = choice.message.content ?? ''
        return {
          text,
          ...(schema ? { json: strictJson(text), structured } : {}),
          model: completion.model || model,
          usage: { input_tokens: completion.usage?.prompt_tokens ?? 0, output_tokens: completion.usage?.completion_tokens ?? 0 },
        }
      }
      if (!request.json_schema) return ask()
      // A server that refuses JSON Schema (many local ones) is asked in JSON mode, then in plain
      // text with the schema in the prompt; the way that worked is kept for the model's next calls.
      for (let structured = structuredFor.get(model) ?? 'json_schema'; ;) {
        try {
          return await ask(structured)
        }
        catch (error) {
          const next = FALLBACK[structured]
          if (!next || !refusesStructuredOutput(error)) throw error
          structuredFor.set(model, structured = next)
        }
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

type OpenAIStructured = Exclude<StructuredOutput, 'tool'>

/** The request's `response_format`: the judge's schema as the server is asked to hold it, else an LLM step's own. */
function responseFormat(request: ChatRequest, structured?: OpenAIStructured): Pick<OpenAI.Chat.ChatCompletionCreateParams, 'response_format'> {
  const schema = request.json_schema
  if (schema && structured === 'json_schema') return { response_format: { type: 'json_schema', json_schema: { name: schema.name, schema: schema.schema, strict: true } } }
  if (schema && structured === 'json_object') return { response_format: { type: 'json_object' } }
  if (!schema && request.response_format) return { response_format: request.response_format as unknown as OpenAI.Chat.ChatCompletionCreateParams['response_format'] }
  return {}
}
const FALLBACK: Record<OpenAIStructured, OpenAIStructured | undefined> = { json_schema: 'json_object', json_object: 'text', text: undefined }

/** The answer as JSON when it is JSON as it is; otherwise the judge reads (and repairs) the text. */
function strictJson(text: string): unknown {
  try {
    return parseJsonWithin(text, MAX_VALUE_DEPTH)
  }
  catch {
    return undefined
  }
}
