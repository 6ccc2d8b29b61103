import { costOf } from '../../providers/prices'
import { defineStep } from '../types'
import { llmSpec } from './spec'

export const llmStep = defineStep({
  ...llmSpec,
  modelOf: config => config.model,
  async run({ config, providers, signal, cache }) {
    const response = await providers.complete(config.model, {
      system: config.system,
      messages: [{ role: 'user', content: config.prompt }],
      temperature: config.temperature,
      max_tokens: config.max_tokens,
      ...(config.response_format ? { response_format: config.response_format } : {}),
      cache: config.cache ?? (cache === false ? false : undefined),
    }, { signal })
    const { text, model, usage, latency_ms, cached } = response
    // An answer from the cache was paid for once, by the call that stored it.
    return { output: { text, model, usage, latency_ms, cached, cost_usd: cached ? 0 : costOf(config.model, usage) }, usage, cached }
  },
})
