/**
 * Novelty memory: a vector cache shared by every trace evaluation that uses it, so a trace scored
 * by one evaluator lowers the novelty of similar traces scored by any other. An app keeps its own
 * (sized by its configuration); callers that give none share the default one.
 */
import { VectorCache } from './vector-cache'

export interface TraceCacheSettings {
  /** How many trace vectors it keeps (JUDGEFLOW_TRACE_CACHE_SIZE); the oldest makes room for a new one. */
  maxElements: number
  /** How long a vector lowers novelty (JUDGEFLOW_TRACE_CACHE_TTL_MS). */
  ttlMs: number
}

/** The default cache: 1,000 vectors for one hour. */
export const DEFAULT_TRACE_CACHE: Readonly<TraceCacheSettings> = Object.freeze({ maxElements: 1000, ttlMs: 3_600_000 })
/** 100,000 × 384 floats is about 150 MB, and a scan of it some tens of milliseconds. */
export const MAX_TRACE_CACHE_SIZE = 100_000
/** The dimensions of the shared cache: those of the hashed embedder (and of common sentence models). */
export const TRACE_VECTOR_DIMENSIONS = 384

/** A trace cache of the shared dimensions, keeping what `settings` say. */
export function createTraceCache(settings: TraceCacheSettings = DEFAULT_TRACE_CACHE): VectorCache {
  return new VectorCache({ ...settings, dimensions: TRACE_VECTOR_DIMENSIONS })
}

let shared: VectorCache | undefined

/** The default cache (DEFAULT_TRACE_CACHE), for evaluations whose caller gives none. */
export function sharedTraceCache(): VectorCache {
  return shared ??= createTraceCache()
}
