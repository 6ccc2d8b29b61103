import { JudgeflowError } from '../errors'
import type { Providers } from '../providers/types'
import type { ModuleRequest } from '../sandbox/limits'
import type { EvaluationInput } from '../schema/evaluator'
import type { TraceCacheSettings } from '../trace/shared-cache'
import type { NoveltyMemory } from '../trace/vector-cache'
import type { ResolvedEvaluatorConfig } from './config'
import type { HeuristicJudge } from './heuristic'
import type { JudgeStats } from './judge'
import type { MetricRegistry } from './metrics/registry'
import type { ScorerRegistry } from '../scorers/registry'

/** What every evaluation type gets; `C` is its own config, checked and resolved. */
export interface EvaluationContext<C = ResolvedEvaluatorConfig> {
  config: C
  input: EvaluationInput
  providers: Providers
  metrics: MetricRegistry
  scorers: ScorerRegistry
  /** Ids for the candidates (the comparison step names them after the steps they come from). */
  candidateIds?: string[]
  stats: JudgeStats
  /** The offline judge of this evaluation: each text analysed once, each criterion scored once. */
  heuristic: HeuristicJudge
  /** Where trace novelty is remembered (the process's trace cache unless another is given). */
  traceCache: NoveltyMemory
  /** How much the process's trace cache keeps, and the local embedding model. */
  trace: TraceSettings
  signal?: AbortSignal
  /** Runs user code (promptfoo's javascript and python assertions) in a sandbox; absent where code is not allowed. */
  scripts?: ScriptRunner
}

export interface ScriptRunner {
  run(language: 'javascript' | 'python', code: string, args: Record<string, unknown>, mode?: 'assertion' | 'transform'): Promise<unknown>
  /** Calls a code step's function (engine/sandbox/modules.ts). */
  runModule(request: ModuleRequest, signal?: AbortSignal): Promise<unknown>
  /**
   * Resolves when code can run here; otherwise throws INVALID_CONFIG saying what to install.
   * `what` names the code in that sentence (the assertions and transforms unless given).
   */
  ready(what?: string): Promise<void>
}

/** What trace scoring takes from the process's configuration. */
export interface TraceSettings {
  /** What the process's trace cache keeps: a config's window cannot reach past it. */
  limits: TraceCacheSettings
  /** The folder of the local sentence-embedding model (JUDGEFLOW_EMBEDDER_MODEL). */
  embedderModel?: string
}

export function isHeuristic(model: string): boolean {
  return model.startsWith('local:')
}

export function checkHeuristicModel(model: string): void {
  if (isHeuristic(model) && model !== 'local:heuristic') {
    throw new JudgeflowError('INVALID_CONFIG', `Invalid evaluator config: model: "${model}" is not a local judge; the offline judge is "local:heuristic".`)
  }
}

/** Refuses an empty or whitespace-only text before any judge call. */
export function requireText(value: string | undefined, field: string): string {
  if (value === undefined || !value.trim()) {
    throw new JudgeflowError('INVALID_INPUT', `The ${field} to evaluate is empty: give a non-empty ${field}.`)
  }
  return value
}

/** Judge calls at once unless a config says otherwise (criteria, comparison orders, samples). */
export const DEFAULT_CONCURRENCY = 4

/**
 * How many judge calls run at once. `sequential: true` means one; the metric suite is one by
 * default too and runs concurrently only when `concurrency` is given.
 */
export function limitOf(config: Pick<ResolvedEvaluatorConfig, 'sequential' | 'concurrency'>, sequentialByDefault = false): number {
  if (config.sequential) return 1
  return config.concurrency ?? (sequentialByDefault && config.sequential === undefined ? 1 : DEFAULT_CONCURRENCY)
}
