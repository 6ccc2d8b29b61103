import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { createProviders, MemoryResponseCache, type ProvidersOptions } from '../../../engine'
import { FakeLLM } from '../../support/fake-llm'

const fake = new FakeLLM()
beforeAll(async () => { await fake.start() })
afterAll(async () => { await fake.stop() })
beforeEach(() => fake.reset())
afterEach(() => { vi.useRealTimers() })

const providers = (options: ProvidersOptions = {}) => createProviders({ env: fake.env(), retry: { baseDelayMs: 5, maxDelayMs: 20 }, ...options })
const ask = { messages: [{ role: 'user' as const, content: 'Say hi' }] }

/**
 * Starts a call under fake timers and clock, which the client and the fake server share (both run
 * here): the clock moves 10 ms at a time, the requests going over the loopback between moves, until
 * the call settles or `limitMs` have passed on the fake clock. Returns whether it settled.
 */
async function settlesOnFakeClock(start: () => Promise<unknown>, limitMs = 60_000): Promise<boolean> {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] })
  const flag = { settled: false }
  const promise = start()
  promise.then(() => { flag.settled = true }, () => { flag.settled = true })
  for (let elapsed = 0; !flag.settled && elapsed < limitMs; elapsed += 10) {
    await new Promise(resolve => setImmediate(resolve))
    await vi.advanceTimersByTimeAsync(10)
  }
  return flag.settled
}

describe('providers through the real SDKs', () => {
  it('calls OpenAI chat completions and records usage and latency', async () => {
    fake.script({ text: 'hi there', usage: { input_tokens: 12, output_tokens: 3 } })
    const response = await providers().complete('openai:gpt-4o-mini', { ...ask, system: 'be brief', temperature: 0.2, max_tokens: 50 })
    expect(response).toMatchObject({ text: 'hi there', model: 'gpt-4o-mini', usage: { input_tokens: 12, output_tokens: 3 }, cached: false })
    expect(response.latency_ms).toBeGreaterThanOrEqual(0)
    const sent = fake.requests[0]!
    expect(sent.api).toBe('openai')
    expect(sent.headers.authorization).toBe('Bearer sk-fake-openai-key-123456')
    expect(sent.body).toMatchObject({ model: 'gpt-4o-mini', temperature: 0.2, max_tokens: 50, messages: [{ role: 'system', content: 'be brief' }, { role: 'user', content: 'Say hi' }] })
  })

  it('calls Anthropic messages, honouring ANTHROPIC_BASE_URL', async () => {
    fake.script({ text: 'bonjour' })
    const response = await providers().complete('anthropic:claude-3-5-haiku-latest', { ...ask, system: 'sys' })
    expect(response.text).toBe('bonjour')
    expect(fake.requests[0]).toMatchObject({ api: 'anthropic', body: { model: 'claude-3-5-haiku-latest', system: 'sys', max_tokens: 4096 } })
    const { authorization, 'x-api-key': apiKey } = fake.requests[0]!.headers
    expect(apiKey ?? authorization).toMatch(/^(Bearer )?sk-ant-fake-anthropic-key-123456$/)
  })

  it('asks for structured output: OpenAI json_schema, Anthropic a forced tool call', async () => {
    const schema = { name: 'verdict', schema: { type: 'object', properties: { score: { type: 'number' } }, required: ['score'], additionalProperties: false } }
    fake.script({ json: { score: 0.9 } }, { json: { score: 0.4 } })
    const a = await providers().complete('openai:gpt-4o-mini', { ...ask, json_schema: schema })
    const b = await providers().complete('anthropic:claude-3-5-haiku-latest', { ...ask, json_schema: schema })
    expect(a.json).toEqual({ score: 0.9 })
    expect(b.json).toEqual({ score: 0.4 })
    expect(fake.requests[0]!.body.response_format).toMatchObject({ type: 'json_schema', json_schema: { name: 'verdict', strict: true } })
    expect(fake.requests[1]!.body.tool_choice).toEqual({ type: 'tool', name: 'verdict' })
  })

  it('sends an LLM step\'s response_format as OpenAI\'s, the answer kept as text; Anthropic refuses one; embeddings come back in order', async () => {
    fake.script({ text: '{"a": 1}' })
    const a = await providers().complete('openai:gpt-4o-mini', { ...ask, response_format: { type: 'json_object' } })
    expect(a.text).toBe('{"a": 1}')
    expect(fake.requests[0]!.body.response_format).toEqual({ type: 'json_object' })
    await expect(providers().complete('anthropic:claude-3-5-haiku-latest', { ...ask, response_format: { type: 'json_object' } })).rejects.toThrow('anthropic:claude-3-5-haiku-latest has no response_format')
    const vectors = await providers().embed('openai:text-embedding-3-small', ['one', 'two'])
    expect(vectors).toHaveLength(2)
    expect(fake.requests.at(-1)!.path).toBe('/v1/embeddings')
    await expect(providers().embed('anthropic:claude-3-5-haiku-latest', ['x'])).rejects.toThrow('has no embeddings API judgeflow calls')
  })

  it('retries a 429 after the Retry-After it was given', async () => {
    const arrivals: number[] = []
    fake.onRequest(() => {
      arrivals.push(Date.now())
      return arrivals.length === 1 ? { status: 429, headers: { 'retry-after': '0.2' } } : { text: 'echo: hi' }
    })
    let response: Awaited<ReturnType<ReturnType<typeof providers>['complete']>> | undefined
    expect(await settlesOnFakeClock(async () => { response = await providers().complete('openai:gpt-4o-mini', ask) })).toBe(true)
    // The retry came at least the 200 ms of Retry-After later (the backoff alone is 5–20 ms).
    expect(arrivals[1]! - arrivals[0]!).toBeGreaterThanOrEqual(200)
    expect(response!.text).toMatch(/^echo:/)
    expect(fake.requests).toHaveLength(2)
  })

  it('retries 5xx, connection resets and slow calls, then succeeds', async () => {
    fake.script({ status: 503 }, { reset: true }, { resetMidBody: true }, { delayMs: 400 })
    const response = await providers({ retry: { baseDelayMs: 1, maxDelayMs: 5, maxRetries: 4, callTimeoutMs: 150 } }).complete('anthropic:claude-3-5-haiku-latest', ask)
    expect(response.text).toMatch(/^echo:/)
    expect(fake.requests).toHaveLength(5)
  })

  it('retries a malformed or truncated body, and names it when it persists', async () => {
    fake.script({ body: '{"id":"x","choices":[{"message":' }, { body: 'not json at all' })
    const ok = await providers().complete('openai:gpt-4o-mini', ask)
    expect(ok.text).toMatch(/^echo:/)
    fake.onRequest(() => ({ body: '{"type":"message","content":[' }))
    await expect(providers({ retry: { maxRetries: 1, baseDelayMs: 1, maxDelayMs: 2 } }).complete('anthropic:claude-x', ask))
      .rejects.toThrow(/anthropic:claude-x sent a malformed response: .* \(after 2 calls\)/)
  })

  it('gives up after the configured retries with the provider message', async () => {
    fake.onRequest(() => ({ status: 500 }))
    await expect(providers({ retry: { maxRetries: 2, baseDelayMs: 1, maxDelayMs: 2 } }).complete('openai:gpt-4o-mini', ask))
      .rejects.toThrow(/openai:gpt-4o-mini answered HTTP 500: .*fake error 500.* \(after 3 calls\)/)
    expect(fake.requests).toHaveLength(3)
  })

  it('fails at once on a non-transient error', async () => {
    fake.script({ status: 400 })
    await expect(providers().complete('anthropic:claude-x', ask)).rejects.toMatchObject({ code: 'PROVIDER_ERROR', message: expect.stringContaining('answered HTTP 400') })
    expect(fake.requests).toHaveLength(1)
  })

  it('reports a missing key before any call, naming the variable', () => {
    const p = createProviders({ env: { OPENAI_BASE_URL: fake.openaiBaseURL } })
    expect(() => p.check('openai:gpt-4o', 'node "draft"')).toThrow('OPENAI_API_KEY is not set: node "draft" uses openai:gpt-4o.')
    expect(() => p.check('mistral:large')).toThrow('Unknown provider "mistral"')
    expect(fake.requests).toHaveLength(0)
  })

  it('stops a call when the caller aborts', async () => {
    fake.script({ delayMs: 2000 })
    const controller = new AbortController()
    let call: Promise<unknown> | undefined
    // Aborted at 50 ms, the call ends well before the server's 2 s answer.
    expect(await settlesOnFakeClock(() => {
      setTimeout(() => controller.abort(), 50)
      return (call = providers().complete('openai:gpt-4o-mini', ask, { signal: controller.signal }))
    }, 1000)).toBe(true)
    await expect(call).rejects.toThrow()
  })

  it('caches temperature-0 answers, marks them cached, and can be bypassed', async () => {
    const p = providers({ cache: new MemoryResponseCache() })
    const first = await p.complete('openai:gpt-4o-mini', { ...ask, temperature: 0 })
    const second = await p.complete('openai:gpt-4o-mini', { ...ask, temperature: 0 })
    expect([first.cached, second.cached]).toEqual([false, true])
    expect(second.text).toBe(first.text)
    await p.complete('openai:gpt-4o-mini', { ...ask, temperature: 0, cache: false })
    await p.complete('openai:gpt-4o-mini', { ...ask, temperature: 0.7 })
    await p.complete('openai:gpt-4o', { ...ask, temperature: 0 })
    expect(fake.requests).toHaveLength(4)
  })

  it('never puts the key in an error message', async () => {
    fake.script({ status: 401, body: JSON.stringify({ error: { message: 'Incorrect API key provided: sk-fake-openai-key-123456' } }) })
    const error = await providers().complete('openai:gpt-4o-mini', ask).then(() => new Error('it did not fail'), (e: unknown) => e as Error)
    expect(error.message).toContain('[redacted]')
    expect(error.message).not.toContain('sk-fake-openai-key-123456')
  })
})
