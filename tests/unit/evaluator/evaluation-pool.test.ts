import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { createProviders, evaluate, EvaluationPool, JudgeflowError, loadScorersFolder, refusingWhenQueued, ScorerRegistry, VectorCache } from '../../../engine'

// The pool runs the TypeScript entry through tsx here; the built server runs the bundled one.
const entry = new URL('../../../engine/evaluator/worker/entry.ts', import.meta.url)
const providers = createProviders({ env: {} })
const criteria = { evaluation_type: 'criteria', model: 'local:heuristic', criteria: [{ name: 'relevance', weight: 0.5 }, { name: 'accuracy', weight: 0.5 }] }
const input = { content: 'Open Settings and choose "Forgot password".', context: 'How do I reset my password?', reference: 'Use "Forgot password" in Settings.' }
const distinctNumbers = (count: number, offset: number) => Array.from({ length: count }, (_, i) => String(i * 7 + offset)).join(' ')
const heavy = { content: distinctNumbers(20_000, 1), reference: distinctNumbers(20_000, 3) }
const withoutLatency = <T extends { latency_ms: number }>(result: T) => ({ ...result, latency_ms: 0 })

const pools: EvaluationPool[] = []
const poolOf = (options: Partial<ConstructorParameters<typeof EvaluationPool>[0]> = {}) => {
  const pool = new EvaluationPool({ entry, size: 1, ...options })
  pools.push(pool)
  return pool
}
afterAll(() => Promise.all(pools.map(pool => pool.close())))

describe('the evaluation pool', () => {
  it('gives the same result as evaluating in place, reusing its worker', async () => {
    const pool = poolOf()
    const inPlace = await evaluate(criteria, input, { providers })
    for (let i = 0; i < 3; i++) expect(withoutLatency(await evaluate(criteria, input, { providers, runner: pool }))).toEqual(withoutLatency(inPlace))
    expect(pool.workers).toBe(1)
  })

  it('keeps LLM-judged evaluations on the calling thread', async () => {
    const pool = poolOf()
    const llm = createProviders({ env: {}, adapters: [{ id: 'inproc', async send(model) {
      const json = { criteria_scores: { relevance: 1, accuracy: 1 } }
      return { text: JSON.stringify(json), json, model, usage: { input_tokens: 0, output_tokens: 0 } }
    } }] })
    const result = await evaluate({ ...criteria, model: 'inproc:judge' }, input, { providers: llm, runner: pool })
    expect(result.overall_score).toBe(1)
    expect(pool.workers).toBe(0)
  })

  it('brings an engine error back as the same JudgeflowError', async () => {
    // A pattern holding a reference is compiled only when it is judged (the config's check leaves it to the run): in the worker.
    const result = evaluate({ evaluation_type: 'scorers', scorers: [{ type: 'regex', options: { pattern: '({{x}}' } }] }, { actual: 'x' }, { providers, runner: poolOf() })
    await expect(result).rejects.toBeInstanceOf(JudgeflowError)
    await expect(result).rejects.toMatchObject({ code: 'INVALID_PATTERN', category: 'user' })
  })

  it('stops an evaluation past the time limit with an error naming JUDGEFLOW_EVAL_TIME_LIMIT_MS, then starts a new worker', async () => {
    // A custom scorer that never returns (loaded here and by the workers, as the server does): only terminating its thread stops it.
    const scorersDir = mkdtempSync(join(tmpdir(), 'judgeflow-scorers-'))
    writeFileSync(join(scorersDir, 'spin.mjs'), 'export default { type: \'spin\', score() { for (;;) {} } }\n')
    const scorers = new ScorerRegistry()
    await loadScorersFolder(scorersDir, scorers)
    const pool = poolOf({ timeLimitMs: 1_000, scorersDir })
    const endless = evaluate({ evaluation_type: 'scorers', scorers: [{ type: 'spin' }] }, { actual: 'x' }, { providers, scorers, runner: pool })
    await expect(endless).rejects.toMatchObject({ code: 'EVALUATION_TIME_LIMIT', details: { variable: 'JUDGEFLOW_EVAL_TIME_LIMIT_MS', limit_ms: 1_000 } })
    await expect(endless).rejects.toThrow('did not finish within the time limit of 1000 ms and was stopped: evaluate shorter texts, fewer criteria or a smaller input, or raise JUDGEFLOW_EVAL_TIME_LIMIT_MS.')
    expect(pool.workers).toBe(0)
    expect((await evaluate(criteria, input, { providers, runner: pool })).overall_score).toBeGreaterThan(0)
    expect(pool.workers).toBe(1)
  })

  it('stops the worker of a cancelled evaluation', async () => {
    const pool = poolOf()
    await evaluate(criteria, input, { providers, runner: pool })
    const controller = new AbortController()
    const cancelled = evaluate({ ...criteria, criteria: [{ name: 'accuracy' }] }, heavy, { providers, runner: pool, signal: controller.signal })
    setTimeout(() => controller.abort(), 20)
    await expect(cancelled).rejects.toMatchObject({ name: 'AbortError' })
    expect(pool.workers).toBe(0)
  })

  it('asks the main thread for trace novelty, so every worker shares one cache', async () => {
    const cache = new VectorCache()
    const pool = poolOf({ size: 2, traceCache: cache })
    const trace = { metadata: { success: true }, task: { objective: 'Fix the parser' }, steps: [{ type: 'thought', content: 'Read the failing test' }], outcome: { confidence: 0.9 } }
    const novelty = async () => (await evaluate({ evaluation_type: 'trace', trace: { embedder: 'hashed' } }, { trace }, { providers, runner: pool })).trace!.N
    expect(await novelty()).toBe(0.5)
    expect(await novelty()).toBe(0)
    expect(cache.size).toBe(2)
  })

  it('refuses, behind a queue limit, an evaluation that would wait beyond it; the pool itself still takes every one', async () => {
    const pool = poolOf({ timeLimitMs: 2_500 })
    const limited = refusingWhenQueued(pool, 1)
    // Nothing runs until the worker has started: the first evaluation waits, and fills the line.
    const first = evaluate(criteria, input, { providers, runner: limited })
    expect(pool.waiting).toBe(1)
    const refused = evaluate(criteria, input, { providers, runner: limited })
    await expect(refused).rejects.toMatchObject({ code: 'TOO_MANY_EVALUATIONS', details: { variable: 'JUDGEFLOW_MAX_QUEUED_EVALUATIONS', limit: 1, retry_after_s: 3 } })
    await expect(refused).rejects.toThrow('1 evaluation is already waiting for an evaluation worker, the most JUDGEFLOW_MAX_QUEUED_EVALUATIONS allows (1): try again in 3 s, or raise JUDGEFLOW_MAX_QUEUED_EVALUATIONS.')
    const step = evaluate(criteria, input, { providers, runner: pool })
    expect(pool.waiting).toBe(2)
    expect((await first).overall_score).toBeGreaterThan(0)
    expect((await step).overall_score).toBeGreaterThan(0)
    expect((await evaluate(criteria, input, { providers, runner: limited })).overall_score).toBeGreaterThan(0)
  })
})
