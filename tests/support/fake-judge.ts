/** The evaluator tests' judge: the fake LLM server for the file's tests, and providers that use it. */
import { afterAll, beforeAll, beforeEach } from 'vitest'
import { createProviders, MemoryResponseCache } from '../../engine'
import { FakeLLM } from './fake-llm'

export const suiteInput = { user_query: 'How do I reset my password?', submission: 'Open Settings, choose "Forgot password" and follow the emailed link.' }

export function useFakeJudge() {
  const fake = new FakeLLM()
  beforeAll(async () => { await fake.start() })
  afterAll(async () => { await fake.stop() })
  beforeEach(() => fake.reset())
  const providers = (env: Record<string, string> = fake.env()) =>
    createProviders({ env, cache: new MemoryResponseCache(), retry: { baseDelayMs: 1, maxDelayMs: 5 } })
  return { fake, providers }
}
