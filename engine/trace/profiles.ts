/** Domain weight profiles for the trace score: which quality signal each kind of task values most. */
import { roundScore } from '../evaluator/arithmetic'

export interface TraceWeights {
  complexity: number
  novelty: number
  tool_diversity: number
  outcome_confidence: number
}

export const TRACE_FACTORS = ['complexity', 'novelty', 'tool_diversity', 'outcome_confidence'] as const

const weights = (complexity: number, novelty: number, tool_diversity: number, outcome_confidence: number): TraceWeights =>
  ({ complexity, novelty, tool_diversity, outcome_confidence })

/** The built-in profiles: finance and medical trust the outcome most, code values using many tools. */
export const DEFAULT_PROFILES: Readonly<Record<string, Readonly<TraceWeights>>> = Object.freeze({
  default: weights(0.25, 0.35, 0.15, 0.25),
  finance: weights(0.20, 0.25, 0.10, 0.45),
  code: weights(0.20, 0.30, 0.30, 0.20),
  medical: weights(0.15, 0.20, 0.10, 0.55),
  customer_service: weights(0.20, 0.30, 0.20, 0.30),
})

const WEIGHT_TOLERANCE = 1e-6

/** Own keys only, so a domain named "constructor" is unknown rather than Object's prototype. */
const own = <T>(table: Readonly<Record<string, T>>, key: string): T | undefined =>
  (Object.hasOwn(table, key) ? table[key] : undefined)

/**
 * The profile for a trace's domain: a custom profile first, then a built-in one, else `default`.
 * An unknown domain is not an error: it is scored with the default weights, silently.
 */
export function profileFor(domain: string | undefined, custom: Readonly<Record<string, TraceWeights>> = {}): { name: string, weights: TraceWeights } {
  const name = domain ?? 'default'
  const found = own(custom, name) ?? own(DEFAULT_PROFILES, name)
  if (found) return { name, weights: { ...found } }
  return { name: 'default', weights: { ...(own(custom, 'default') ?? DEFAULT_PROFILES.default!) } }
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

/** Every problem with custom profiles, each naming its field; empty when they can be used. */
export function checkProfiles(custom: unknown): string[] {
  if (custom === undefined) return []
  if (!isRecord(custom)) return ['profiles: must be an object of domain name to weights']
  const problems: string[] = []
  for (const [name, profile] of Object.entries(custom)) {
    const at = `profiles.${name}`
    if (!isRecord(profile)) {
      problems.push(`${at}: must be an object with ${TRACE_FACTORS.join(', ')}`)
      continue
    }
    for (const key of Object.keys(profile)) {
      if (!(TRACE_FACTORS as readonly string[]).includes(key)) problems.push(`${at}.${key}: is not a weight (use ${TRACE_FACTORS.join(', ')})`)
    }
    let sum = 0
    let usable = true
    for (const factor of TRACE_FACTORS) {
      const weight = profile[factor]
      if (typeof weight !== 'number' || !Number.isFinite(weight) || weight < 0 || weight > 1) {
        problems.push(`${at}.${factor}: ${weight === undefined ? 'is required' : 'must be a number from 0 to 1'}`)
        usable = false
      }
      else sum += weight
    }
    // A sum is only worth reporting when every part of it is a valid weight.
    if (usable && Math.abs(sum - 1) > WEIGHT_TOLERANCE) problems.push(`${at}: weights must sum to 1.0, not ${roundScore(sum)}`)
  }
  return problems
}
