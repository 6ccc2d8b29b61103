/**
 * The bounds of `POST /v1/traces` and of the online scoring behind it, each with its environment
 * variable: read by loadConfig (core/config.ts) with the same checks and messages as every other variable.
 */
import { z } from 'zod'
import { DEFAULT_OTLP_LIMITS, type OtlpLimits } from '../engine/online/otlp'
import type { variable } from './config-fields'

export interface OtlpConfig extends OtlpLimits {
  /** JUDGEFLOW_OTLP_MAX_BODY_BYTES: an export request's body, as sent and once gunzipped; over it, 413. */
  maxBodyBytes: number
  /** JUDGEFLOW_OTLP_SPANS_PER_SECOND: the spans one client address may send a second, on average; beyond, 429 with Retry-After. */
  spansPerSecond: number
  /**
   * JUDGEFLOW_ONLINE_SCORINGS_IN_FLIGHT: the online scorings a server process has started and not
   * yet recorded, at most; the others wait in the queue, so that scoring never starves ingestion.
   */
  scoringsInFlight: number
}

export const DEFAULT_OTLP_CONFIG: OtlpConfig = { ...DEFAULT_OTLP_LIMITS, maxBodyBytes: 8 * 1024 * 1024, spansPerSecond: 5_000, scoringsInFlight: 16 }

/** The OTLP settings from the environment `read` reads (JUDGEFLOW_OTLP_MAX_SPANS, _MAX_ATTRIBUTES, _MAX_ATTRIBUTE_CHARS and the three above). */
export function readOtlpConfig(read: ReturnType<typeof variable>): OtlpConfig {
  const count = z.string().trim().transform(Number).pipe(z.number().int().min(1).max(Number.MAX_SAFE_INTEGER))
  const whole = (name: string, fallback: number) => read(name, count, fallback,
    `${name} must be a whole number of at least 1 (it is "{raw}"); unset it for the default, ${fallback}.`)
  return {
    maxBodyBytes: whole('JUDGEFLOW_OTLP_MAX_BODY_BYTES', DEFAULT_OTLP_CONFIG.maxBodyBytes),
    maxSpans: whole('JUDGEFLOW_OTLP_MAX_SPANS', DEFAULT_OTLP_CONFIG.maxSpans),
    maxAttributes: whole('JUDGEFLOW_OTLP_MAX_ATTRIBUTES', DEFAULT_OTLP_CONFIG.maxAttributes),
    maxAttributeChars: whole('JUDGEFLOW_OTLP_MAX_ATTRIBUTE_CHARS', DEFAULT_OTLP_CONFIG.maxAttributeChars),
    spansPerSecond: whole('JUDGEFLOW_OTLP_SPANS_PER_SECOND', DEFAULT_OTLP_CONFIG.spansPerSecond),
    scoringsInFlight: whole('JUDGEFLOW_ONLINE_SCORINGS_IN_FLIGHT', DEFAULT_OTLP_CONFIG.scoringsInFlight),
  }
}
