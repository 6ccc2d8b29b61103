import { createHashedNgramEmbedder, scoreTrace, VectorCache, type ReasoningTrace, type TraceStep } from '../engine/trace'
import { median, percentile, report } from './lib'

const STEP_TYPES = ['thought', 'tool_call', 'observation', 'error_recovery'] as const

/** A 50-step trace whose wording changes with `variant`, so each run embeds different text. */
function traceOf(variant: number): ReasoningTrace {
  const steps: TraceStep[] = Array.from({ length: 50 }, (_, i) => {
    const type = STEP_TYPES[i % 4]!
    return {
      step_id: i,
      type,
      content: `Step ${i} of run ${variant}: checked the ${['ledger', 'build log', 'test output', 'ticket'][(i + variant) % 4]} and noted figure ${(i * 7919 + variant) % 1000}`,
      ...(type === 'tool_call' ? { tool: { name: `tool_${i % 6}` }, input: { query: `q${i}` } } : {}),
    }
  })
  return {
    metadata: { task_domain: 'code', success: true },
    task: { objective: `Find why nightly run ${variant} failed` },
    steps,
    outcome: { confidence: 0.8 },
  }
}

function randomUnitVector(dimensions: number): Float32Array {
  const v = Float32Array.from({ length: dimensions }, () => Math.random() - 0.5)
  const norm = Math.hypot(...v)
  return v.map(x => x / norm)
}

async function benchScoreOnly(): Promise<void> {
  const trace = traceOf(0)
  const options = { embedder: null, cache: new VectorCache() }
  for (let i = 0; i < 500; i++) await scoreTrace(trace, options)
  const times: number[] = []
  for (let i = 0; i < 2000; i++) {
    const t0 = performance.now()
    await scoreTrace(trace, options)
    times.push(performance.now() - t0)
  }
  report({ name: 'trace score p99, 50 steps, no embedder', value: percentile(times, 99), unit: 'ms', target: '<= 1' })
}

function benchCacheScan(): void {
  const cache = new VectorCache({ maxElements: 1000, dimensions: 384 })
  for (let i = 0; i < 1000; i++) cache.add(randomUnitVector(384))
  const query = randomUnitVector(384)
  for (let i = 0; i < 200; i++) cache.maxSimilarity(query)
  const times: number[] = []
  for (let i = 0; i < 500; i++) {
    const t0 = performance.now()
    cache.maxSimilarity(query)
    times.push(performance.now() - t0)
  }
  report({ name: 'vector cache scan, 1,000 × 384', value: median(times), unit: 'ms', target: '<= 1' })
}

async function benchWithEmbedder(): Promise<void> {
  const embedder = createHashedNgramEmbedder(384)
  const cache = new VectorCache({ maxElements: 1000, dimensions: 384 })
  // Warm-up fills the cache with real trace vectors, and lets V8 optimise the whole path.
  for (let i = 0; i < 1000; i++) await scoreTrace(traceOf(1000 + i), { cache, embedder })
  const times: number[] = []
  for (let i = 0; i < 200; i++) {
    const trace = traceOf(i)
    const t0 = performance.now()
    await scoreTrace(trace, { cache, embedder })
    times.push(performance.now() - t0)
  }
  report({ name: 'trace evaluation with the offline embedder, 50 steps, warm cache of 1,000', value: percentile(times, 99), unit: 'ms', target: '<= 100' })
}

export async function benchTrace(): Promise<void> {
  await benchScoreOnly()
  benchCacheScan()
  await benchWithEmbedder()
}
