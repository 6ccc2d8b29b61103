/**
 * The trace score: four factors weighted by the task's domain, then three fixed overrides.
 * Factor formulas are those of the scoring note; tests pin them with its worked example.
 */
import { clamp01, roundScore } from '../evaluator/arithmetic'
import { JudgeflowError } from '../errors'
import type { Embedder } from './embedders'
import { checkProfiles, profileFor, type TraceWeights } from './profiles'
import type { ReasoningTrace, StepType } from './schema'
import { sharedTraceCache } from './shared-cache'
import type { CacheWindow, NoveltyMemory } from './vector-cache'

export interface TraceFactors {
  complexity: number
  novelty: number
  tool_diversity: number
  outcome_confidence: number
}

export interface TraceCounts {
  steps: number
  unique_types: number
  error_recovery: number
  unique_tools: number
}

export type TraceOverride = 'single_thought' | 'error_recovery_bonus' | 'single_tool_penalty'

export interface TraceScore {
  score: number
  factors: TraceFactors
  profile: string
  weights: TraceWeights
  /** The overrides that fired, in the order they were applied. */
  overrides: TraceOverride[]
  counts: TraceCounts
  /** `default` when novelty is the 0.5 of "nothing to compare with": no embedder, or an empty cache. */
  novelty_source: 'embedder' | 'default'
  /** The embedder's id, or `none`. */
  embedder: string
}

export interface ScoreTraceOptions {
  /** Custom domain profiles, on top of the built-in ones. */
  profiles?: Record<string, TraceWeights>
  /** The novelty memory; left out, the process's shared cache (or a stand-in for one held by another thread). */
  cache?: NoveltyMemory
  /** Which of the cache's entries novelty compares with (all of them when left out). */
  window?: CacheWindow
  /** Left out or `null`, there is no embedder and novelty is 0.5: neither new nor repeated. */
  embedder?: Embedder | null
}

/** Novelty when there is nothing to compare with: neither new nor repeated. */
const UNKNOWN_NOVELTY = 0.5

export function countsOf(trace: ReasoningTrace): TraceCounts {
  const types = new Set<StepType>()
  const tools = new Set<string>()
  let errorRecovery = 0
  for (const step of trace.steps) {
    types.add(step.type)
    if (step.type === 'error_recovery') errorRecovery++
    if (step.tool) tools.add(step.tool.name)
  }
  return { steps: trace.steps.length, unique_types: types.size, error_recovery: errorRecovery, unique_tools: tools.size }
}

/** C = min(1, uniqueTypes/4 × 0.5 + (any error recovery ? 0.3 : 0) + steps/20 × 0.2) */
export function complexityOf(counts: TraceCounts): number {
  return roundScore(Math.min(1, (counts.unique_types / 4) * 0.5 + (counts.error_recovery > 0 ? 0.3 : 0) + (counts.steps / 20) * 0.2))
}

/** D = min(1, uniqueTools / max(1, steps) × 3): one distinct tool per three steps is full marks. */
export function toolDiversityOf(counts: TraceCounts): number {
  return roundScore(Math.min(1, (counts.unique_tools / Math.max(1, counts.steps)) * 3))
}

/** O = confidence, cut to 30 % when the task failed: a confident failure is worth little. */
export function outcomeConfidenceOf(confidence: number, success: boolean): number {
  return roundScore(confidence * (success ? 1 : 0.3))
}

/** What is embedded for novelty: the objective, then each step's content. */
export function traceText(trace: ReasoningTrace): string {
  const parts = [trace.task.objective]
  for (const step of trace.steps) if (step.content !== undefined) parts.push(step.content)
  return parts.join(' ')
}

export interface OverrideFacts {
  steps: number
  /** The type of the first step: a lone thought is the one case the first override looks at. */
  first_step_type: StepType | undefined
  error_recovery: number
  unique_tools: number
  uses_tools: boolean
  success: boolean
}

/** The three overrides, in this order, each on the result of the one before. */
export function applyOverrides(score: number, facts: OverrideFacts): { score: number, overrides: TraceOverride[] } {
  const overrides: TraceOverride[] = []
  if (facts.steps === 1 && facts.first_step_type === 'thought') {
    score = 0.1
    overrides.push('single_thought')
  }
  if (facts.error_recovery > 2 && facts.success) {
    score = Math.min(1, score + 0.1)
    overrides.push('error_recovery_bonus')
  }
  if (facts.unique_tools <= 1 && facts.uses_tools) {
    score = Math.max(0, score - 0.1)
    overrides.push('single_tool_penalty')
  }
  return { score: roundScore(score), overrides }
}

export function overrideFactsOf(trace: ReasoningTrace, counts: TraceCounts): OverrideFacts {
  return {
    steps: counts.steps,
    first_step_type: trace.steps[0]?.type,
    error_recovery: counts.error_recovery,
    unique_tools: counts.unique_tools,
    uses_tools: trace.steps.some(step => step.tool !== undefined),
    success: trace.metadata.success,
  }
}

/** Embeds the trace, compares it with the cache, then remembers it for the traces after it. */
async function noveltyOf(trace: ReasoningTrace, embedder: Embedder | null, options: ScoreTraceOptions): Promise<{ novelty: number, source: TraceScore['novelty_source'] }> {
  if (!embedder) return { novelty: UNKNOWN_NOVELTY, source: 'default' }
  const cache = options.cache ?? sharedTraceCache()
  if (embedder.dimensions !== cache.dimensions) {
    throw new JudgeflowError('INVALID_CONFIG', `The embedder "${embedder.id}" gives ${embedder.dimensions} dimensions but the trace cache holds ${cache.dimensions}: use a model of ${cache.dimensions} dimensions, or trace.fresh_cache.`)
  }
  const vector = await embedder.embed(traceText(trace))
  const similarity = await cache.compareAndAdd(vector, options.window)
  if (similarity === undefined) return { novelty: UNKNOWN_NOVELTY, source: 'default' }
  // Hashed vectors can point away from each other; anything below zero similarity is simply new.
  return { novelty: roundScore(clamp01(1 - similarity)), source: 'embedder' }
}

/**
 * Scores a validated trace (see `parseTrace`). With an embedder it is stateful through the cache:
 * each scored trace lowers the novelty of similar traces scored after it, until it expires.
 */
export async function scoreTrace(trace: ReasoningTrace, options: ScoreTraceOptions = {}): Promise<TraceScore> {
  const problems = checkProfiles(options.profiles)
  if (problems.length) throw new JudgeflowError('INVALID_CONFIG', `Invalid trace profiles: ${problems.join('; ')}`)
  const { name, weights } = profileFor(trace.metadata.task_domain, options.profiles)
  const counts = countsOf(trace)
  const embedder = options.embedder ?? null
  const { novelty, source } = await noveltyOf(trace, embedder, options)
  const factors: TraceFactors = {
    complexity: complexityOf(counts),
    novelty,
    tool_diversity: toolDiversityOf(counts),
    outcome_confidence: outcomeConfidenceOf(trace.outcome.confidence, trace.metadata.success),
  }
  const composite = roundScore(
    factors.complexity * weights.complexity
    + factors.novelty * weights.novelty
    + factors.tool_diversity * weights.tool_diversity
    + factors.outcome_confidence * weights.outcome_confidence,
  )
  const { score, overrides } = applyOverrides(composite, overrideFactsOf(trace, counts))
  return { score, factors, profile: name, weights, overrides, counts, novelty_source: source, embedder: embedder?.id ?? 'none' }
}
