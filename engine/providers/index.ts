import { JudgeflowError } from '../errors'
import { splitModelRef } from '../schema/common'
import { cacheKey, shouldCache } from './cache'
import { createAnthropicAdapter } from './anthropic'
import { createOpenAIAdapter } from './openai'
import { providerError } from './errors'
import { defaultRetryPolicy, withRetries, type RetryPolicy } from './retry'
import type { ChatResponse, DefaultJudgeFallback, ProviderAdapter, Providers, ResponseCache } from './types'
import { OFFLINE_JUDGE, PROVIDER_MODELS } from './models'

export { PROVIDER_MODELS, providerDefaultModel } from './models'
export { callerAdapters, type CallerAnswer, type CallerComplete, type CallerProvider, type CallerProviders } from './caller'

/** `local:heuristic` is the offline judge: evaluators use it directly, it answers no chat request. */
const localAdapter: ProviderAdapter = {
  id: 'local',
  async send(model) {
    throw new JudgeflowError('INVALID_CONFIG', `local:${model} is an offline judge, not a text model: use it as an evaluator's model`)
  },
}

/** Keys and endpoints by variable name (OPENAI_API_KEY, OPENAI_BASE_URL, ANTHROPIC_API_KEY, ANTHROPIC_BASE_URL). */
export type ProviderKeys = Record<string, string | undefined>

/** The key variables that choose the default judge, in order of preference, and the judge each gives. */
export const DEFAULT_JUDGE_KEYS: Readonly<Record<string, string>> = {
  OPENAI_API_KEY: PROVIDER_MODELS.openai![0]!,
  ANTHROPIC_API_KEY: PROVIDER_MODELS.anthropic![0]!,
}

/** The judge used when an evaluator names none: the configured one, else by the keys present, else the offline judge. */
export function defaultJudgeFor(keys: ProviderKeys, configured?: string): string {
  if (configured) return configured
  const key = Object.keys(DEFAULT_JUDGE_KEYS).find(variable => keys[variable])
  return key ? DEFAULT_JUDGE_KEYS[key]! : OFFLINE_JUDGE
}

export interface ProvidersOptions {
  /** Keys and base URLs (none unless given); keys are never stored or returned. */
  env?: ProviderKeys
  /** The judge for evaluators that name none (JUDGEFLOW_DEFAULT_JUDGE); by the keys present unless given. */
  defaultJudge?: string
  /**
   * Refuse an evaluator whose judge would be the offline one only because no key is set
   * (JUDGEFLOW_REQUIRE_JUDGE, --require-judge); otherwise its result says so in `warnings`.
   */
  requireJudge?: boolean
  cache?: ResponseCache
  retry?: Partial<RetryPolicy>
  /** Extra or replacement adapters, by provider id. */
  adapters?: ProviderAdapter[]
}

export function createProviders(options: ProvidersOptions = {}): Providers {
  const env = options.env ?? {}
  const policy: RetryPolicy = { ...defaultRetryPolicy, ...options.retry }
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
    async embed(modelRef, texts, callOptions = {}) {
      const { adapter, provider, model } = resolve(modelRef)
      if (!adapter.embed) throw new JudgeflowError('INVALID_CONFIG', `${modelRef} has no embeddings API judgeflow calls: name an openai:<embedding model> (any OpenAI-compatible server through OPENAI_BASE_URL).`)
      const { value } = await withRetries(async (signal) => {
        try {
          return await adapter.embed!(model, texts, { signal })
        }
        catch (error) {
          if (error instanceof JudgeflowError || signal.aborted) throw error
          throw providerError(provider, modelRef, error, secrets())
        }
      }, callOptions.maxRetries === undefined ? policy : { ...policy, maxRetries: callOptions.maxRetries }, { signal: callOptions.signal })
      return value
    },
    defaultJudgeModel() {
      return defaultJudgeFor(env, options.defaultJudge)
    },
    defaultJudgeFallback(): DefaultJudgeFallback | undefined {
      if (defaultJudgeFor(env, options.defaultJudge) !== OFFLINE_JUDGE || options.defaultJudge) return undefined
      return { keys: Object.keys(DEFAULT_JUDGE_KEYS), judges: DEFAULT_JUDGE_KEYS, refused: options.requireJudge === true }
    },
    providerIds() {
      return [...adapters.keys()]
    },
  }
}
