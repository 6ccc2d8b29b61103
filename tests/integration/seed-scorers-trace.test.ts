import { resolve } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startAppServer, type AppServer } from '../support/app-server'

/** A server with the example custom scorer folder and a trace cache of two entries. */
let server: AppServer
beforeAll(async () => {
  server = await startAppServer({ env: { JUDGEFLOW_SCORERS_DIR: resolve(import.meta.dirname, '../../examples/scorers'), JUDGEFLOW_TRACE_CACHE_SIZE: '2' } })
}, 30_000)
afterAll(() => server?.stop())

const words = () => Array.from({ length: 8 }, () => Math.random().toString(36).slice(2)).join(' ')
const distinct = () => ({ metadata: { success: true }, task: { objective: words() }, steps: [{ type: 'thought', content: words() }], outcome: { confidence: 0.5 } })
const evaluateTrace = async (trace: object, options: object = {}) => server.api('/api/evaluate', { body: { config: { evaluation_type: 'trace', trace: options }, input: { trace } } })

describe('a custom scorer written as a class instance', () => {
  it('is loaded from JUDGEFLOW_SCORERS_DIR by its file name, listed, and run through POST /api/evaluate', async () => {
    const { body: catalog } = await server.api('/api/evaluators')
    expect(catalog.scorers).toContainEqual({ type: 'word-limit', label: 'word-limit', description: 'Full marks up to 50 words, then less for every word over.', default_threshold: 0.8 })
    const text = Array.from({ length: 60 }, (_, i) => `w${i}`).join(' ')
    const { status, body } = await server.api('/api/evaluate', { body: { config: { evaluation_type: 'scorers', scorers: [{ type: 'word-limit' }] }, input: { actual: text } } })
    expect(status).toBe(200)
    expect(body).toMatchObject({ passed: true, overall_score: 0.8, scorer_results: [{ type: 'word-limit', threshold: 0.8, details: { words: 60, maxWords: 50 } }] })
  })
})

describe('trace novelty on the server', () => {
  it('is 0.5 with no embedder configured, however often a trace comes back', async () => {
    const trace = distinct()
    for (let i = 0; i < 3; i++) expect((await evaluateTrace(trace)).body.trace).toMatchObject({ N: 0.5, embedder: 'none' })
  })

  it('remembers JUDGEFLOW_TRACE_CACHE_SIZE traces: a trace two others later is new again', async () => {
    const [x, y, z] = [distinct(), distinct(), distinct()]
    for (const trace of [x, y, z]) await evaluateTrace(trace, { embedder: 'hashed' })
    const again = await evaluateTrace(x, { embedder: 'hashed' })
    expect(again.body.trace).toMatchObject({ cache: { size: 2 } })
    expect(again.body.trace.N).toBeGreaterThan(0.6) // x made room for y and z: only z and y are compared
    expect((await evaluateTrace(x, { embedder: 'hashed' })).body.trace.N).toBe(0)
    const wide = await evaluateTrace(x, { embedder: 'hashed', cache_size: 3 })
    expect([wide.status, wide.body.message]).toEqual([400, 'Invalid evaluator config: trace.cache_size: is more traces than this process keeps (JUDGEFLOW_TRACE_CACHE_SIZE, 2): lower it or raise the variable.'])
  })

  it('refuses to start with a cache size that is not a number, naming the variable', async () => {
    // A server that does start is stopped at once, so a failing test leaves no process behind.
    const outcome = await startAppServer({ env: { JUDGEFLOW_TRACE_CACHE_SIZE: 'lots' } }).then(async (started) => {
      await started.stop()
      return 'started'
    }, (error: Error) => error.message)
    expect(outcome).toContain('judgeflow: refusing to start: JUDGEFLOW_TRACE_CACHE_SIZE must be a whole number of traces from 1 to 100000; unset it for the default (1000).')
  })
})
