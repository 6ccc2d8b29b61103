import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { createProviders, defaultRegistry, runWorkflow } from '../../engine'
import { loadConfig } from '../../core'
import { FakeLLM, type FakeReply } from '../support/fake-llm'

/**
 * Fault injection against the fake LLM server, through the real SDKs: every run ends in a defined
 * state, retries are bounded, no promise is left rejected, and nothing is reported as passed that
 * was not judged.
 */
const fake = new FakeLLM()
const unhandled: unknown[] = []
const onUnhandled = (reason: unknown) => { unhandled.push(reason) }
beforeAll(async () => {
  await fake.start()
  process.on('unhandledRejection', onUnhandled)
})
afterAll(async () => {
  process.off('unhandledRejection', onUnhandled)
  await fake.stop()
})
afterEach(() => {
  fake.reset()
  expect(unhandled).toEqual([])
})

const MAX_RETRIES = 2
const { retry } = loadConfig({ JUDGEFLOW_LLM_MAX_RETRIES: String(MAX_RETRIES), JUDGEFLOW_LLM_RETRY_BASE_MS: '5', JUDGEFLOW_LLM_RETRY_MAX_MS: '20', JUDGEFLOW_LLM_TIMEOUT_MS: '400' })
const providers = () => createProviders({ env: fake.env(), retry })
/** The draft comes from the live model; the judge is the offline one, or the live model too. */
const gate = (judge: string) => ({
  name: 'gate',
  nodes: [
    { id: 'in', type: 'input' },
    { id: 'draft', type: 'llm', config: { model: 'openai:gpt-4o-mini', prompt: 'Explain how to reset a password in steps.' } },
    { id: 'judge', type: 'evaluator', config: { evaluation_type: 'scoring', model: judge, content: '{{steps.draft.text}}', context: 'How do I reset my password?', pass_threshold: 0.1 } },
    { id: 'check', type: 'condition', config: { left: '{{steps.judge.passed}}', op: 'truthy' } },
    { id: 'ok', type: 'output', config: { verdict: 'pass' } },
    { id: 'ko', type: 'output', config: { verdict: 'fail' } },
  ],
  edges: [{ from: 'in', to: 'draft' }, { from: 'draft', to: 'judge' }, { from: 'judge', to: 'check' }, { from: 'check', to: 'ok', when: 'true' }, { from: 'check', to: 'ko', when: 'false' }],
})
const GOOD: FakeReply = { text: 'To reset your password: 1. Open Settings. 2. Choose "Forgot password". 3. Follow the emailed link.' }
const run = (judge = 'local:heuristic', signal?: AbortSignal) => runWorkflow(gate(judge), { registry: defaultRegistry, providers: providers(), cache: false, signal })

describe('faults of the model API', () => {
  it('a 429 storm with Retry-After: bounded retries, then a failed run naming the rate limit', async () => {
    fake.onRequest(() => ({ status: 429, headers: { 'retry-after': '0' } }))
    const result = await run()
    expect(result.status).toBe('failed')
    expect(result.error?.message).toMatch(/429|rate/i)
    expect(fake.requests).toHaveLength(MAX_RETRIES + 1)
    expect(result.verdict).not.toBe('pass')
  })

  it('429s then an answer, and a 5xx burst then an answer: the run succeeds', async () => {
    fake.script({ status: 429, headers: { 'retry-after': '0' } }, { status: 503 }, GOOD)
    const result = await run()
    expect(result).toMatchObject({ status: 'succeeded', verdict: 'pass' })
    expect(fake.requests).toHaveLength(3)
  })

  it('a server that always fails: bounded, then failed', async () => {
    fake.onRequest(() => ({ status: 500 }))
    const result = await run()
    expect(result.status).toBe('failed')
    expect(fake.requests).toHaveLength(MAX_RETRIES + 1)
  })

  it('timeouts: each call stops at the timeout, retries are bounded, the run fails saying so', async () => {
    // The answer comes far later than the 400 ms timeout, so even a test process stalled by a busy
    // machine for a second or two cannot see it arrive before its timer fires.
    fake.onRequest(() => ({ ...GOOD, delayMs: 10_000 }))
    const started = Date.now()
    const result = await run()
    expect(result.status).toBe('failed')
    expect(result.error?.message).toContain('longer than 400 ms')
    expect(fake.requests).toHaveLength(MAX_RETRIES + 1)
    // No call waited for its answer.
    expect(Date.now() - started).toBeLessThan(10_000)
  })

  it('a connection reset mid-body, then an answer: retried, succeeds; slow drips complete', async () => {
    fake.script({ ...GOOD, resetMidBody: true }, { ...GOOD, dripMs: 2 })
    const result = await run()
    expect(result).toMatchObject({ status: 'succeeded', verdict: 'pass' })
    expect(fake.requests).toHaveLength(2)
  })

  it('malformed and truncated JSON: a failed run, never a pass', async () => {
    fake.onRequest(() => ({ body: '{"choices": [{"message": {"content": "hal' }))
    const truncated = await run()
    expect(truncated.status).toBe('failed')
    expect(truncated.verdict).not.toBe('pass')
    fake.reset()
    fake.onRequest(() => ({ body: 'not json at all' }))
    const malformed = await run()
    expect(malformed.status).toBe('failed')
  })

  it('a judge that refuses or answers garbage: the evaluation fails, the gate does not pass', async () => {
    fake.onRequest(request => (request.body.response_format ? { refusal: 'I cannot help with that.' } : GOOD))
    const refused = await run('openai:gpt-4o-mini')
    expect(refused.status).toBe('failed')
    expect(refused.steps.judge?.status).toBe('failed')
    expect(refused.verdict).not.toBe('pass')
    fake.reset()
    fake.onRequest(request => (request.body.response_format ? { text: 'score: great!' } : GOOD))
    const garbage = await run('openai:gpt-4o-mini')
    expect(garbage.steps.judge?.status).toBe('failed')
    expect(garbage.verdict).not.toBe('pass')
  })

  it('a run cancelled while the model is answering ends cancelled, its call aborted', async () => {
    fake.onRequest(() => ({ ...GOOD, delayMs: 300 }))
    const controller = new AbortController()
    setTimeout(() => controller.abort(), 100)
    const result = await run('local:heuristic', controller.signal)
    expect(result.status).toBe('cancelled')
    await new Promise(resolve => setTimeout(resolve, 350))
    expect(fake.requests[0]?.aborted).toBe(true)
  })
})
