/**
 * The process's novelty memory: one vector cache shared by every trace evaluation, so a trace
 * scored by one evaluator lowers the novelty of similar traces scored by any other. Its size and
 * TTL come from the environment, read when it is first used.
 */
import { JudgeflowError } from '../errors'
import { VectorCache } from './vector-cache'

export interface TraceCacheSettings {
  /** How many trace vectors it keeps (JUDGEFLOW_TRACE_CACHE_SIZE); the oldest makes room for a new one. */
  maxElements: number
  /** How long a vector lowers novelty (JUDGEFLOW_TRACE_CACHE_TTL_MS). */
  ttlMs: number
}

/** The seed's cache: 1,000 vectors for one hour. */
export const DEFAULT_TRACE_CACHE: Readonly<TraceCacheSettings> = Object.freeze({ maxElements: 1000, ttlMs: 3_600_000 })
/** 100,000 × 384 floats is about 150 MB, and a scan of it some tens of milliseconds. */
export const MAX_TRACE_CACHE_SIZE = 100_000
/** The dimensions of the shared cache: those of the hashed embedder (and of common sentence models). */
export const TRACE_VECTOR_DIMENSIONS = 384

function wholeNumber(env: Record<string, string | undefined>, name: string, fallback: number, max: number, unit: string): number {
  const raw = env[name]?.trim()
  if (!raw) return fallback
  const value = Number(raw)
  if (!Number.isSafeInteger(value) || value < 1 || value > max) {
    throw new JudgeflowError('INVALID_CONFIG', `${name} must be a whole number of ${unit} from 1 to ${max}; unset it for the default (${fallback}).`)
  }
  return value
}

export function traceCacheSettingsFromEnv(env: Record<string, string | undefined> = process.env): TraceCacheSettings {
  return {
    maxElements: wholeNumber(env, 'JUDGEFLOW_TRACE_CACHE_SIZE', DEFAULT_TRACE_CACHE.maxElements, MAX_TRACE_CACHE_SIZE, 'traces'),
    ttlMs: wholeNumber(env, 'JUDGEFLOW_TRACE_CACHE_TTL_MS', DEFAULT_TRACE_CACHE.ttlMs, Number.MAX_SAFE_INTEGER, 'milliseconds'),
  }
}

let shared: VectorCache | undefined

/** Built on first use, so a bad variable is reported by the first thing that needs the cache (the server does at start). */
export function sharedTraceCache(): VectorCache {
  return shared ??= new VectorCache({ ...traceCacheSettingsFromEnv(), dimensions: TRACE_VECTOR_DIMENSIONS })
}
