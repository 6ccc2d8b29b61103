import { JudgeflowError } from '../../errors'
import type { EvaluatorResult } from '../../schema/evaluator'
import { checkProfiles, defaultEmbedder, loadTransformersEmbedder, parseTrace, scoreTrace, VectorCache, type Embedder } from '../../trace'
import { confidenceOf, marginOf, passes } from '../arithmetic'
import { invalidConfig } from '../config'
import type { EvaluationContext } from '../context'
import { baseResult } from './result'

async function embedderFor(choice: 'hashed' | 'transformers' | 'none' | undefined): Promise<Embedder | null> {
  if (choice === 'none') return null
  if (choice !== 'transformers') return defaultEmbedder
  const embedder = await loadTransformersEmbedder()
  if (!embedder) throw new JudgeflowError('INVALID_CONFIG', 'Invalid evaluator config: trace.embedder: "transformers" needs the @huggingface/transformers package and a local model folder in JUDGEFLOW_EMBEDDER_MODEL.')
  return embedder
}

/**
 * Agent-trace scoring (trace-scoring-algorithm): C·wC + N·wN + D·wD + O·wO with the domain's
 * profile, then the three overrides. Novelty compares against the process-wide vector cache (held
 * by the main thread even when the trace is scored on a worker) unless `trace.fresh_cache` asks for
 * an empty one.
 */
export async function evaluateTrace(ctx: EvaluationContext): Promise<EvaluatorResult> {
  const options = ctx.config.trace ?? {}
  const problems = checkProfiles(options.profiles)
  if (problems.length) throw invalidConfig(problems.map(p => ({ path: `trace.${p.slice(0, p.indexOf(':'))}`, message: p.slice(p.indexOf(':') + 2) })))
  if (ctx.input.trace === undefined) throw new JudgeflowError('INVALID_INPUT', 'The trace to score is missing: give input.trace (a ReasoningTrace).')
  let trace
  try {
    trace = parseTrace(ctx.input.trace)
  }
  catch (error) {
    throw new JudgeflowError('INVALID_INPUT', `${(error as Error).message}.`.replace(/\.\.$/, '.'))
  }
  const scored = await scoreTrace(trace, {
    profiles: options.profiles,
    cache: options.fresh_cache ? new VectorCache() : ctx.traceCache,
    embedder: await embedderFor(options.embedder),
  })
  const { complexity: C, novelty: N, tool_diversity: D, outcome_confidence: O } = scored.factors
  const factors = { agreement: 1, margin: marginOf(scored.score, ctx.config.pass_threshold), validity: 1, judge: 1 }
  return {
    ...baseResult(ctx),
    passed: passes(scored.score, ctx.config.pass_threshold),
    overall_score: scored.score,
    criteria_scores: { ...scored.factors },
    criteria_reasons: {
      complexity: `${scored.counts.unique_types} step types, ${scored.counts.error_recovery} error recoveries, ${scored.counts.steps} steps`,
      novelty: scored.novelty_source === 'default' ? 'nothing to compare with yet (0.5)' : '1 − the highest similarity to recently scored traces',
      tool_diversity: `${scored.counts.unique_tools} distinct tools over ${scored.counts.steps} steps`,
      outcome_confidence: `confidence ${trace.outcome.confidence}${trace.metadata.success ? '' : ' × 0.3 (not successful)'}`,
    },
    feedback: ctx.config.include_feedback ? `Profile ${scored.profile}; overrides: ${scored.overrides.length ? scored.overrides.join(', ') : 'none'}.` : '',
    suggestions: [],
    grade: null,
    confidence: confidenceOf(factors),
    confidence_factors: factors,
    trace: { score: scored.score, C, N, D, O, factors: scored.factors, profile: scored.profile, weights: scored.weights, overrides: scored.overrides, counts: scored.counts, novelty_source: scored.novelty_source },
  }
}
