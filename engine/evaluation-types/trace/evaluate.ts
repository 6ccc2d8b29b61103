import { JudgeflowError } from '../../errors'
import { asSentence } from '../../text/sentence'
import type { EvaluatorResult } from '../../schema/evaluator'
import { checkProfiles, hashedEmbedder, loadTransformersEmbedder, parseTrace, scoreTrace, TRACE_VECTOR_DIMENSIONS, VectorCache, type CacheWindow, type Embedder, type NoveltyMemory } from '../../trace'
import { confidenceOf, marginOf, passes } from '../../evaluator/arithmetic'
import type { ResolvedEvaluatorConfig } from '../../evaluator/config'
import { invalidConfig } from '../checks'
import type { EvaluatorConfigOf } from '../config-schema'
import type { EvaluationContext, TraceSettings } from '../../evaluator/context'
import { baseResult } from '../result'

type TraceConfig = ResolvedEvaluatorConfig<EvaluatorConfigOf<'trace'>>
type TraceOptions = NonNullable<TraceConfig['trace']>

/** No embedder unless one is chosen: novelty is then 0.5, neither new nor repeated. */
async function embedderFor(choice: TraceOptions['embedder'], modelPath: string | undefined): Promise<Embedder | null> {
  if (choice === 'hashed') return hashedEmbedder
  if (choice !== 'transformers') return null
  const embedder = await loadTransformersEmbedder(modelPath)
  if (!embedder) throw new JudgeflowError('INVALID_CONFIG', 'Invalid evaluator config: trace.embedder: "transformers" needs the @huggingface/transformers package and a local model folder in JUDGEFLOW_EMBEDDER_MODEL.')
  return embedder
}

/**
 * The cache novelty compares with, and how much of it: the shared one seen through the config's
 * `cache_ttl_ms` / `cache_size` (which cannot reach past what the process keeps), or an empty one.
 */
function cacheFor(options: TraceOptions, embedder: Embedder | null, memory: NoveltyMemory, cache: TraceSettings['limits']): { cache: NoveltyMemory, window: CacheWindow } {
  if (options.fresh_cache) return { cache: new VectorCache({ dimensions: embedder?.dimensions ?? TRACE_VECTOR_DIMENSIONS }), window: {} }
  // The process's limits, handed to whichever thread scores the trace.
  const problems = []
  if (options.cache_ttl_ms !== undefined && options.cache_ttl_ms > cache.ttlMs) problems.push({ path: 'trace.cache_ttl_ms', message: `is longer than this process keeps traces (JUDGEFLOW_TRACE_CACHE_TTL_MS, ${cache.ttlMs}): lower it or raise the variable` })
  if (options.cache_size !== undefined && options.cache_size > cache.maxElements) problems.push({ path: 'trace.cache_size', message: `is more traces than this process keeps (JUDGEFLOW_TRACE_CACHE_SIZE, ${cache.maxElements}): lower it or raise the variable` })
  if (problems.length) throw invalidConfig(problems)
  return { cache: memory, window: { ttlMs: options.cache_ttl_ms, maxElements: options.cache_size } }
}

/**
 * Agent-trace scoring (trace-scoring-algorithm): C·wC + N·wN + D·wD + O·wO with the domain's
 * profile, then the three overrides. Novelty compares against the process-wide vector cache (held
 * by the main thread even when the trace is scored on a worker) unless `trace.fresh_cache` asks for
 * an empty one.
 */
export async function evaluateTrace(ctx: EvaluationContext<TraceConfig>): Promise<EvaluatorResult> {
  const options = ctx.config.trace ?? {}
  const problems = checkProfiles(options.profiles)
  if (problems.length) throw invalidConfig(problems.map(p => ({ path: `trace.${p.slice(0, p.indexOf(':'))}`, message: p.slice(p.indexOf(':') + 2) })))
  if (ctx.input.trace === undefined) throw new JudgeflowError('INVALID_INPUT', 'The trace to score is missing: give input.trace (a ReasoningTrace).')
  let trace
  try {
    trace = parseTrace(ctx.input.trace)
  }
  catch (error) {
    throw new JudgeflowError('INVALID_INPUT', asSentence((error as Error).message))
  }
  const embedder = await embedderFor(options.embedder, ctx.trace.embedderModel)
  const { cache, window } = cacheFor(options, embedder, ctx.traceCache, ctx.trace.limits)
  // What the cache compared with keeps: a fresh cache its own size, else the process's limits.
  const kept = cache instanceof VectorCache ? cache : ctx.trace.limits
  const scored = await scoreTrace(trace, { profiles: options.profiles, cache, window, embedder })
  const { complexity: C, novelty: N, tool_diversity: D, outcome_confidence: O } = scored.factors
  const factors = { agreement: 1, margin: marginOf(scored.score, ctx.config.pass_threshold), validity: 1, judge: 1 }
  return {
    ...baseResult(ctx),
    passed: passes(scored.score, ctx.config.pass_threshold),
    overall_score: scored.score,
    criteria_scores: { ...scored.factors },
    criteria_reasons: {
      complexity: `${scored.counts.unique_types} step types, ${scored.counts.error_recovery} error recoveries, ${scored.counts.steps} steps`,
      novelty: !embedder ? 'no embedder configured (0.5)' : scored.novelty_source === 'default' ? 'nothing to compare with yet (0.5)' : '1 − the highest similarity to recently scored traces',
      tool_diversity: `${scored.counts.unique_tools} distinct tools over ${scored.counts.steps} steps`,
      outcome_confidence: `confidence ${trace.outcome.confidence}${trace.metadata.success ? '' : ' × 0.3 (not successful)'}`,
    },
    feedback: ctx.config.include_feedback ? `Profile ${scored.profile}; overrides: ${scored.overrides.length ? scored.overrides.join(', ') : 'none'}.` : '',
    suggestions: [],
    grade: null,
    confidence: confidenceOf(factors),
    confidence_factors: factors,
    trace: {
      score: scored.score, C, N, D, O,
      factors: scored.factors, profile: scored.profile, weights: scored.weights, overrides: scored.overrides, counts: scored.counts,
      novelty_source: scored.novelty_source, embedder: scored.embedder,
      cache: { fresh: options.fresh_cache === true, ttl_ms: window.ttlMs ?? kept.ttlMs, size: window.maxElements ?? kept.maxElements },
    },
  }
}
