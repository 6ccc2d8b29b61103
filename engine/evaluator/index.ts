import { JudgeflowError } from '../errors'
import type { Providers } from '../providers/types'
import type { HttpAccess } from '../http/access'
import { evaluationInputSchema, type EvaluatorResult } from '../schema/evaluator'
import { formatPath } from '../graph/path'
import { resolveEvaluatorConfig, type ResolvedEvaluatorConfig } from './config'
import { checkHeuristicModel, isHeuristic, type EvaluationContext, type ScriptRunner, type TraceSettings } from './context'
import { createHeuristicJudge } from './heuristic'
import { costOfStats, newStats } from './judge'
import { judgeFingerprint, type JudgeFingerprint } from './fingerprint'
import { MetricRegistry } from './metrics/registry'
import { defaultScorerRegistry, type ScorerRegistry } from '../scorers/registry'
import { DEFAULT_TRACE_CACHE, sharedTraceCache, type NoveltyMemory } from '../trace'
import type { EvaluationRunner } from './worker/runner'
import { evaluationTypeDefinition } from '../evaluation-types/registry'
import { judgeOf } from '../evaluation-types/result'
import { judgeAsPanel } from './panel'
import type { EvaluationTypeDefinition } from '../evaluation-types/types'
import { givenValues, missingInputs } from '../evaluation-types/inputs'
import { checkPlan, countedProviders, plannedCalls, type EvaluationLimits } from './call-budget'
import { defaultMetricRegistry, evaluatorModels, modelsCalled } from './models'
import { checkDefaultJudge } from './judge-fallback'
import { asSentence } from '../text/sentence'

/**
 * What an app gives every evaluation it runs (see core/): its registries, where offline
 * evaluations run, its trace cache and settings, its config folder. Each is optional: without
 * them an evaluation uses the built-ins, runs in place, and shares the default trace cache.
 */
export interface EvaluationServices {
  metrics?: MetricRegistry
  scorers?: ScorerRegistry
  /**
   * Where offline evaluations (heuristic judge, scorers, trace) run — a pool of worker threads in
   * the server — instead of in place. Its workers load the same custom folders as `metrics` and `scorers`.
   */
  runner?: EvaluationRunner | null
  /** Where trace novelty is remembered; the default trace cache unless given. */
  traceCache?: NoveltyMemory
  /** What `traceCache` keeps and the embedding model (DEFAULT_TRACE_CACHE and none unless given). */
  trace?: TraceSettings
  /** The folder evaluator steps read their `config_file` from (./configs unless given). */
  configDir?: string
  /** Where user code may run (promptfoo's javascript and python assertions); absent, such assertions are refused. */
  scripts?: ScriptRunner
  /** What http steps may reach and which variables their headers may read; the caller's own process (any host) unless given. */
  http?: HttpAccess
  /** The provider calls and estimated cost one evaluation may cause (call-budget.ts); unbounded unless given. */
  limits?: EvaluationLimits
}

export interface EvaluateDeps extends EvaluationServices {
  providers: Providers
  signal?: AbortSignal
  /** Ids for the candidates (the comparison step names them after the steps they come from). */
  candidateIds?: string[]
}

export { defaultMetricRegistry, evaluatorModels }
const defaultMetrics = defaultMetricRegistry

/** Validates a config (throwing INVALID_CONFIG naming each field) and checks its keys, before any call. */
export function prepareEvaluation(rawConfig: unknown, deps: Pick<EvaluateDeps, 'providers' | 'metrics' | 'scorers'>) {
  const config = resolveEvaluatorConfig(rawConfig, deps.providers.defaultJudgeModel())
  const definition = evaluationTypeDefinition(config.evaluation_type)
  const prepared: unknown = definition.prepare?.(config, { metrics: deps.metrics ?? defaultMetrics, scorers: deps.scorers ?? defaultScorerRegistry })
  if (!definition.usesJudge) return { config, definition, prepared, warnings: [] }
  // The offline judge standing in for the default one is said in the result, or refused when a real judge is required.
  const fallback = checkDefaultJudge(rawConfig, config, deps.providers, 'the evaluator', { value: prepared })
  const warnings = fallback ? [fallback] : []
  const checkJudge = (model: string, usedBy: string) => {
    checkHeuristicModel(model)
    if (!isHeuristic(model)) deps.providers.check(model, usedBy, 'Set it in the environment, or choose another judge model ("local:heuristic" judges offline).')
  }
  const usedBy = config.judges ? 'the evaluator\'s judge panel' : 'the evaluator'
  if (definition.checkModels) definition.checkModels(config, prepared, deps.providers)
  else for (const model of modelsCalled(definition, config, () => prepared)) checkJudge(model, usedBy)
  return { config, definition, prepared, warnings }
}

/** The judge's fingerprint (fingerprint.ts) of a resolved config; `prepared` as evaluatorModels takes it. */
export function fingerprintOf(config: ResolvedEvaluatorConfig, registry: MetricRegistry = defaultMetrics, prepared?: { value: unknown }): JudgeFingerprint {
  return judgeFingerprint(config as unknown as Record<string, unknown>, evaluatorModels(config, registry, prepared))
}

/**
 * Whether the evaluation makes no LLM call, so a worker thread may run it: every model it calls
 * (modelsCalled) is the offline one, unless its type decides otherwise (`offline`: the assertions,
 * which need the caller's services, and a metric suite, whose panel calls no judge for metrics
 * computed in code).
 */
export function isOfflineEvaluation(definition: EvaluationTypeDefinition<any, any>, config: ResolvedEvaluatorConfig, prepared: unknown): boolean {
  if (definition.offline) return definition.offline(config, prepared)
  return modelsCalled(definition, config, () => prepared).every(isHeuristic)
}

/**
 * One evaluator behind the step, the API and the CLI: validates the config and the input,
 * then judges. `overall_score` and `passed` are always computed here, never taken from a judge.
 */
export async function evaluate(rawConfig: unknown, rawInput: unknown, deps: EvaluateDeps): Promise<EvaluatorResult> {
  const started = performance.now()
  const { config, definition, prepared, warnings } = prepareEvaluation(rawConfig, deps)
  const parsedInput = evaluationInputSchema.safeParse(rawInput ?? {})
  if (!parsedInput.success) {
    const issue = parsedInput.error.issues[0]!
    throw new JudgeflowError('INVALID_INPUT', asSentence(`Invalid evaluation input: ${formatPath(issue.path) || '(input)'}: ${issue.message}`))
  }
  const input = parsedInput.data
  const missing = missingInputs(config, givenValues(input, (config as { compare_inputs?: unknown[] }).compare_inputs))
  if (missing.length) {
    throw new JudgeflowError('INVALID_INPUT', asSentence(`Invalid evaluation input: ${missing.map(p => `${p.path}: ${p.message}`).join('; ')}`), { details: missing })
  }
  // Refused before any call when what it plans passes a limit; counted as it goes otherwise.
  if (deps.limits) checkPlan(plannedCalls(config, definition, prepared), textLength(input), deps.limits)
  const providers = deps.limits ? countedProviders(deps.providers, deps.limits.maxCalls) : deps.providers
  const runner = deps.runner
  if (runner && isOfflineEvaluation(definition, config, prepared)) {
    const job = { config: rawConfig, input, defaultJudge: deps.providers.defaultJudgeModel(), candidateIds: deps.candidateIds }
    const offline = await runner.run(job, deps.signal)
    return withWarnings({ ...offline, latency_ms: Math.round((performance.now() - started) * 100) / 100, ...teamOf(input) }, warnings)
  }
  const heuristic = createHeuristicJudge({ context: input.context, reference: input.reference })
  const ctx: EvaluationContext = {
    config, input, providers,
    metrics: deps.metrics ?? defaultMetrics, scorers: deps.scorers ?? defaultScorerRegistry, stats: newStats(), heuristic,
    traceCache: deps.traceCache ?? sharedTraceCache(), trace: deps.trace ?? { limits: DEFAULT_TRACE_CACHE },
    signal: deps.signal, candidateIds: deps.candidateIds, scripts: deps.scripts,
  }
  const result = config.judges
    ? await judgeAsPanel(ctx, config.judges, config.panel?.aggregate ?? 'majority', async panelist => definition.evaluate(panelist, prepared))
    : await definition.evaluate(ctx, prepared)
  const fingerprint = fingerprintOf(config, deps.metrics ?? defaultMetrics, { value: prepared })
  return withWarnings({
    ...result,
    judge_fingerprint: fingerprint.fingerprint,
    judge: { ...judgeOf(result.judge.model, ctx.stats), fingerprint_parts: fingerprint.parts },
    usage: { ...ctx.stats.usage },
    cost_usd: costOfStats(ctx.stats),
    latency_ms: Math.round((performance.now() - started) * 100) / 100,
    ...teamOf(input),
  }, warnings)
}

/** The evaluation's own warnings first (the judge it was graded by), then the type's. */
function withWarnings(result: EvaluatorResult, warnings: string[]): EvaluatorResult {
  return warnings.length ? { ...result, warnings: [...warnings, ...(result.warnings ?? [])] } : result
}

/** The characters of the texts an evaluation judges, for the estimate of its calls' cost. */
function textLength(input: Record<string, unknown>): number {
  let length = 0
  for (const value of Object.values(input)) if (typeof value === 'string') length += value.length
  return length
}

/** A caller's `team_id` (the metric suite's request field) is not used in judging: it is handed back as given. */
const teamOf = (input: { team_id?: string }) => (input.team_id === undefined ? {} : { team_id: input.team_id })

export * from '../scorers'
export * from '../trace'
export * from '../schema/scorers'
export { MetricRegistry, builtinMetrics, loadMetricsFolder, type MetricDefinition } from './metrics/registry'
export { DEFAULT_CONFIG_DIR, MAX_CONFIG_FILE_BYTES, metricSuiteToToml, parseMetricSuiteToml, readEvaluatorConfigFile } from './toml'
export { DEFAULT_METRICS } from './metrics/registry'
export { resolveEvaluatorConfig } from './config'
export { evaluationTypeDefinitions, evaluationTypeDefinition, findEvaluationType } from '../evaluation-types/registry'
export type { EvaluationTypeDefinition } from '../evaluation-types/types'
export { type EvaluationJob, type EvaluationRunner } from './worker/runner'
export { EvaluationPool, type EvaluationPoolOptions } from './worker/pool'
export { DEFAULT_MAX_QUEUED_EVALUATIONS, QUEUE_LIMIT_VARIABLE, refusingWhenQueued, type QueueingRunner } from './worker/queue-limit'
export type { TraceSettings } from './context'
export * from './arithmetic'
export { pairAgreement, panelPasses, type PanelAggregate, type PanelResult } from './panel'
