import { z } from 'zod'
import { strictObject } from '../../schema/unknown-keys'
import type { ConfigOf } from '../shared-fields'
import type { EvaluationTypeChecks } from '../parts'

export const traceFields = {
  trace: strictObject({
    /** Custom domain profiles: weights complexity, novelty, tool_diversity, outcome_confidence summing to 1.0. */
    profiles: z.record(z.string(), strictObject({
      complexity: z.number(), novelty: z.number(), tool_diversity: z.number(), outcome_confidence: z.number(),
    })).optional(),
    /** Score against an empty novelty cache of its own instead of the process-wide one. */
    fresh_cache: z.boolean().optional(),
    /** `none` (the default: novelty 0.5), `hashed` (offline hashed n-grams), or `transformers` (when installed with a local model). */
    embedder: z.enum(['hashed', 'transformers', 'none']).optional(),
    /** Novelty compares only with traces scored within this many milliseconds (at most the process's JUDGEFLOW_TRACE_CACHE_TTL_MS). */
    cache_ttl_ms: z.number().int('must be a whole number of milliseconds').positive('must be more than 0').optional(),
    /** Novelty compares only with this many most recent traces (at most the process's JUDGEFLOW_TRACE_CACHE_SIZE). */
    cache_size: z.number().int('must be a whole number').min(1, 'must be at least 1').max(100_000, 'must be at most 100000').optional(),
  }).optional(),
}

export const traceChecks: EvaluationTypeChecks<ConfigOf<'trace', typeof traceFields>> = {
  exclusive: ['trace'],
  checkInputs: (_config, given) => (given.has('trace')
    ? []
    : [{ path: 'trace', message: 'is missing: set trace to the reasoning trace to score (a ReasoningTrace, e.g. {{input.trace}})' }]),
}
