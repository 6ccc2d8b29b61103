import { JudgeflowError } from '../errors'
import { splitModelRef } from '../schema/common'
import { cacheKey, shouldCache } from './cache'
import { createAnthropicAdapter } from './anthropic'
import { createOpenAIAdapter } from './openai'
import { providerError } from './errors'
import { retryPolicyFromEnv, withRetries, type RetryPolicy } from './retry'
import type { ChatResponse, ProviderAdapter, Providers, ResponseCache } from './types'

/** `local:heuristic` is the offline judge: evaluators use it directly, it answers no chat request. */
const localAdapter: ProviderAdapter = {
  id: 'local',
  async send(model) {
    throw new JudgeflowError('INVALID_CONFIG', `local:${model} is an offline judge, not a text model: use it as an evaluator's model`)
  },
}

export interface ProvidersOptions {
  /** Where keys and base URLs are read from; keys are never stored or returned. */
  env?: Record<string, string | undefined>
  cache?: ResponseCache
  retry?: Partial<RetryPolicy>
  /** Extra or replacement adapters, by provider id. */
  adapters?: ProviderAdapter[]
}

export function createProviders(options: ProvidersOptions = {}): Providers {
  const env = options.env ?? process.env
  const policy: RetryPolicy = { ...retryPolicyFromEnv(env), ...options.retry }
  const adapters = new Map<string, ProviderAdapter>()
  for (const adapter of [createOpenAIAdapter(env), createAnthropicAdapter(env), localAdapter, ...(options.adapters ?? [])]) adapters.set(adapter.id, adapter)
  const secrets = () => [...adapters.values()].map(a => (a.keyVariable ? env[a.keyVariable] : undefined))

  const resolve = (modelRef: string, usedBy?: string, remedy = 'Set it in the environment.') => {
    const { provider, model } = splitModelRef(modelRef)
    const adapter = adapters.get(provider)
    const who = usedBy ? `${usedBy} uses ${modelRef}` : `${modelRef} is used`
    if (!adapter || !model) {
      throw new JudgeflowError('UNKNOWN_PROVIDER', `Unknown provider "${provider}": ${who}; known providers are ${[...adapters.keys()].join(', ')}.`)
    }
    if (adapter.keyVariable && !env[adapter.keyVariable]) {
      throw new JudgeflowError('MISSING_API_KEY', `${adapter.keyVariable} is not set: ${who}. ${remedy}`, { details: { variable: adapter.keyVariable } })
    }
    return { adapter, provider, model }
  }

  return {
    check(modelRef, usedBy, remedy) {
      resolve(modelRef, usedBy, remedy)
    },
    async complete(modelRef, request, callOptions = {}) {
      const { adapter, provider, model } = resolve(modelRef)
      const useCache = options.cache && shouldCache(request)
      const key = useCache ? cacheKey(provider, model, request) : ''
      if (useCache) {
        const hit = await options.cache!.get(key)
        if (hit) return { ...hit, cached: true, latency_ms: 0 }
      }
      const started = performance.now()
      const { value } = await withRetries(async (signal) => {
        try {
          return await adapter.send(model, request, { signal })
        }
        catch (error) {
          if (error instanceof JudgeflowError) throw error
          if (signal.aborted) throw error
          throw providerError(provider, modelRef, error, secrets())
        }
      }, callOptions.maxRetries === undefined ? policy : { ...policy, maxRetries: callOptions.maxRetries }, { signal: callOptions.signal })
      const response: ChatResponse = { ...value, latency_ms: Math.round(performance.now() - started), cached: false }
      if (useCache && (request.cacheable?.(response) ?? true)) await options.cache!.set(key, response, { provider, model })
      return response
    },
    defaultJudgeModel() {
      if (env.JUDGEFLOW_DEFAULT_JUDGE) return env.JUDGEFLOW_DEFAULT_JUDGE
      if (env.OPENAI_API_KEY) return 'openai:gpt-4o-mini'
      if (env.ANTHROPIC_API_KEY) return 'anthropic:claude-sonnet-4-5-20250929'
      return 'local:heuristic'
    },
  }
}
