/** Text → vector for the novelty factor: an offline hashed embedder, or a local transformers model. */
import { existsSync } from 'node:fs'
import { basename, dirname, resolve } from 'node:path'
import { JudgeflowError } from '../errors'

export interface Embedder {
  id: string
  dimensions: number
  embed(text: string): Float32Array | Promise<Float32Array>
}

const FNV_OFFSET = 0x811c9dc5
const FNV_PRIME = 0x01000193
/** Word unigrams are hashed from a different start, so the word "abc" and the 3-gram "abc" differ. */
const WORD_SEED = 0x5bd1e995

function fnv1a(text: string, seed = FNV_OFFSET): number {
  let hash = seed
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), FNV_PRIME)
  return hash >>> 0
}

/** FNV-1a over three code points, without building the 3-gram string. */
function fnv1aTrigram(a: number, b: number, c: number): number {
  return Math.imul(Math.imul(Math.imul(FNV_OFFSET ^ a, FNV_PRIME) ^ b, FNV_PRIME) ^ c, FNV_PRIME) >>> 0
}

/** The top bit picks the sign so unrelated features cancel out on average instead of piling up. */
function addFeature(vector: Float32Array, hash: number): void {
  const bucket = (hash & 0x7fffffff) % vector.length
  vector[bucket]! += hash & 0x80000000 ? -1 : 1
}

function normalize(vector: Float32Array): Float32Array {
  let sum = 0
  for (let i = 0; i < vector.length; i++) sum += vector[i]! * vector[i]!
  if (sum === 0) return vector
  const scale = 1 / Math.sqrt(sum)
  for (let i = 0; i < vector.length; i++) vector[i]! *= scale
  return vector
}

/**
 * A deterministic embedder that needs no model: character 3-grams and words, hashed into buckets.
 * It measures shared wording, not meaning, which is enough to tell a repeated trace from a new one.
 * 3-grams over code points (not words) make it work for Japanese, which has no spaces.
 */
export function createHashedNgramEmbedder(dimensions = 384): Embedder {
  if (!Number.isInteger(dimensions) || dimensions < 1) throw new JudgeflowError('INVALID_CONFIG', `the hashed embedder needs a whole number of dimensions, not ${dimensions}`)
  return {
    id: `hashed-ngram-${dimensions}`,
    dimensions,
    embed(text: string): Float32Array {
      const vector = new Float32Array(dimensions)
      const normalized = text.normalize('NFKC').toLowerCase().replace(/\s+/g, ' ').trim()
      const codePoints: number[] = []
      for (const char of normalized) codePoints.push(char.codePointAt(0)!)
      for (let i = 0; i + 2 < codePoints.length; i++) addFeature(vector, fnv1aTrigram(codePoints[i]!, codePoints[i + 1]!, codePoints[i + 2]!))
      for (const word of normalized.match(/[\p{L}\p{N}_]+/gu) ?? []) addFeature(vector, fnv1a(word, WORD_SEED))
      return normalize(vector)
    },
  }
}

/** The offline embedder of `trace.embedder: "hashed"`, one for the process (it holds no state). */
export const hashedEmbedder: Embedder = createHashedNgramEmbedder(384)

/** The package is optional and not a dependency: a variable specifier keeps bundlers and tsc from resolving it. */
const TRANSFORMERS_PACKAGE = '@huggingface/transformers'

/** Loaded models by folder: building a pipeline reads the whole model, so it is done once per process. */
const transformersEmbedders = new Map<string, Promise<Embedder | null>>()

/**
 * A sentence-embedding model from a local directory, through `@huggingface/transformers` when it is
 * installed. Returns null when the package or the model is missing: it never downloads a model.
 * The model is loaded on first use and the same embedder is returned after that (and to calls made
 * while it loads); a load that failed is tried again on the next call.
 */
export function loadTransformersEmbedder(modelPath: string | undefined): Promise<Embedder | null> {
  if (!modelPath) return Promise.resolve(null)
  const directory = resolve(modelPath)
  const known = transformersEmbedders.get(directory)
  if (known) return known
  const loading = buildTransformersEmbedder(directory)
  transformersEmbedders.set(directory, loading)
  void loading.then((embedder) => {
    if (!embedder) transformersEmbedders.delete(directory)
  })
  return loading
}

async function buildTransformersEmbedder(directory: string): Promise<Embedder | null> {
  if (!existsSync(directory)) return null
  let transformers: any
  try {
    transformers = await import(TRANSFORMERS_PACKAGE)
  }
  catch {
    return null
  }
  try {
    // transformers.js looks a model id up under env.localModelPath, so the id is the folder's name.
    transformers.env.allowRemoteModels = false
    transformers.env.localModelPath = dirname(directory)
    const extractor = await transformers.pipeline('feature-extraction', basename(directory), { local_files_only: true })
    const embed = async (text: string) => {
      const output = await extractor(text, { pooling: 'mean', normalize: true })
      return Float32Array.from(output.data as ArrayLike<number>)
    }
    const dimensions = (await embed('dimensions probe')).length
    return { id: `transformers:${basename(directory)}`, dimensions, embed }
  }
  catch {
    return null
  }
}
