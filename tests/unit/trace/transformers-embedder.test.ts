import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { createProviders, evaluate } from '../../../engine'
import { createHashedNgramEmbedder, DEFAULT_TRACE_CACHE, loadTransformersEmbedder } from '../../../engine/trace'

// The optional package stands in here: a pipeline that embeds like the hashed embedder, and counts
// how often a model is loaded (that is the expensive part: it reads the whole model).
const { pipeline } = vi.hoisted(() => ({ pipeline: vi.fn() }))
vi.mock('@huggingface/transformers', () => ({ env: {}, pipeline }))
const stand = createHashedNgramEmbedder(384)
pipeline.mockImplementation(async () => async (text: string) => ({ data: stand.embed(text) }))

const providers = createProviders({ env: {} })
const trace = (objective: string) => ({
  metadata: { task_domain: 'code', success: true },
  task: { objective },
  steps: [{ type: 'thought', content: 'Read the failing test' }, { type: 'tool_call', tool: { name: 'runner' } }, { type: 'observation', content: 'It passes now' }],
  outcome: { confidence: 0.9 },
})

describe('the transformers embedder', () => {
  afterEach(() => {
    pipeline.mockClear()
  })

  it('is loaded once and reused by every evaluation after it, not rebuilt each time', async () => {
    // JUDGEFLOW_EMBEDDER_MODEL, as an app hands it to its evaluations.
    const settings = { limits: DEFAULT_TRACE_CACHE, embedderModel: mkdtempSync(join(tmpdir(), 'judgeflow-model-')) }
    const config = { evaluation_type: 'trace', trace: { embedder: 'transformers' } }
    const objective = `Fix the build, run ${Math.random()}`
    const first = await evaluate(config, { trace: trace(objective) }, { providers, trace: settings })
    const results = []
    for (let i = 0; i < 3; i++) results.push(await evaluate(config, { trace: trace(objective) }, { providers, trace: settings }))
    expect(pipeline).toHaveBeenCalledTimes(1)
    expect(first.trace).toMatchObject({ embedder: expect.stringMatching(/^transformers:judgeflow-model-/), N: 0.5 })
    // The same embedder each time: the repeats are recognised as repeats.
    for (const result of results) expect(result.trace!.N).toBeLessThan(0.01)
  })

  it('loads each model folder once, calls made while it loads included, and tries again after a failed load', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'judgeflow-model-'))
    pipeline.mockRejectedValueOnce(new Error('not a model'))
    expect(await loadTransformersEmbedder(folder)).toBeNull()
    const [embedder, same] = await Promise.all([loadTransformersEmbedder(folder), loadTransformersEmbedder(folder)])
    expect(embedder).not.toBeNull()
    expect(same).toBe(embedder)
    expect(await loadTransformersEmbedder(folder)).toBe(embedder)
    expect(pipeline).toHaveBeenCalledTimes(2)
  })
})
