import { createScriptRunner } from '../engine/sandbox'
import {
  createProviders, createTraceCache, defaultRegistry, EvaluationPool, loadMetricsFolder, loadScorersFolder, MetricRegistry, refusingWhenQueued, ScorerRegistry,
  type EvaluationServices, type ProviderAdapter, type Providers, type StepRegistry, type VectorCache,
} from '../engine'
import { setPriceOverrides } from '../engine/providers/prices'
import type { JudgeflowConfig } from './config'
import { DatasetRuns } from './datasets'
import { OnlineScoring } from './online/scoring'
import { Rounds } from './rounds'
import { scheduleRetention, type RetentionSchedule } from './retention'
import type { RunQueue } from './runs/run-queue'
import { RunService } from './runs/run-service'
import type { Store } from './store'

export interface JudgeflowOptions {
  /**
   * Where everything is kept. The application layer does not open databases: `openJudgeflow`
   * (main/) opens the one the configuration names and passes it here.
   */
  store: Store
  /** The step types runs may use (the built-ins unless given). */
  steps?: StepRegistry
  /** This process's name as a lease holder (tests). */
  owner?: string
  /** Whether this app prunes its store on the retention schedule (config.retention); true unless false. */
  retention?: boolean
  /** Where started runs execute: this process unless given (`openJudgeflow` gives PostgreSQL's pg-boss queue). */
  queue?: RunQueue
  /** Providers besides (or in place of) the built-in ones, by id: the library caller's own (engine/providers/caller.ts). */
  adapters?: ProviderAdapter[]
}

/**
 * One judgeflow: its configuration, registries, providers, store, run service and rounds, built
 * together and handed to whoever needs them — the server's routes (`useJudgeflow()`), the CLI's
 * commands, the tests. Nothing here is process-wide: two apps in one process share nothing.
 */
export interface Judgeflow {
  config: JudgeflowConfig
  /** The step types runs may use (the engine's name for it: a step registry). */
  registry: StepRegistry
  /** Built-in metrics, then the custom ones `loadCustomModules` adds. */
  metrics: MetricRegistry
  /** Built-in scorers, then the custom ones `loadCustomModules` adds. */
  scorers: ScorerRegistry
  providers: Providers
  store: Store
  runs: RunService
  /** The queue runs go through to the worker processes (PostgreSQL), if any. */
  queue?: RunQueue
  rounds: Rounds
  /** Runs of workflows (or an evaluator alone) over datasets. */
  datasets: DatasetRuns
  /** Online scoring: the queued decisions scored as runs, once the server starts it (`online.start()`). */
  online: OnlineScoring
  /** The scheduled prune of old runs, gone processes' leases and cache entries over the bound; undefined when turned off. */
  retention?: RetentionSchedule
  /** This app's novelty memory, shared by all its trace evaluations. */
  traceCache: VectorCache
  /**
   * What every evaluation of this app gets — registries, trace cache and settings, config folder,
   * and the evaluation workers once started (`evaluation.runner`). Passed to runs and `evaluate`.
   */
  evaluation: EvaluationServices
  /** Loads the custom metrics and scorers folders (config.evaluation) into this app's registries; the names loaded. */
  loadCustomModules(): Promise<{ metrics: string[], scorers: string[] }>
  /**
   * Runs this app's offline evaluations on worker threads started from `entry`, each within
   * config.evaluation.timeLimitMs; the pool, or undefined when config.evaluation.workers is 0
   * (evaluations then run in place, without a time limit). `close` stops the workers after the runs.
   */
  startEvaluationWorkers(entry: URL): EvaluationPool | undefined
  /**
   * `evaluation` for one evaluation asked directly (POST /api/evaluate): refused with
   * TOO_MANY_EVALUATIONS when config.evaluation.maxQueued evaluations already wait for a worker.
   * Steps of runs use `evaluation` and wait their turn.
   */
  directEvaluation(): EvaluationServices
  /** Lets the runs finish (up to the shutdown grace), then closes the store and the evaluation workers. */
  close(graceMs?: number): Promise<void>
}

export function createJudgeflow(config: JudgeflowConfig, options: JudgeflowOptions): Judgeflow {
  const { store, queue } = options
  const registry = options.steps ?? defaultRegistry
  const metrics = new MetricRegistry()
  const scorers = new ScorerRegistry()
  const retention = options.retention === false ? undefined : scheduleRetention(store, config.retention)
  const cache = retention?.boundedCache(store.cache) ?? store.cache
  const providers = createProviders({
    env: { ...config.providers.keys }, defaultJudge: config.providers.defaultJudge, requireJudge: config.providers.requireJudge,
    cache, retry: config.retry, adapters: options.adapters,
  })
  // The prices the server was given come before the published ones, for every cost and estimate.
  setPriceOverrides(config.providers.prices)
  const traceCache = createTraceCache(config.trace.cache)
  const evaluation: EvaluationServices = {
    metrics, scorers, traceCache, configDir: config.evaluation.configDir, limits: config.evaluation.limits, http: config.http,
    trace: { limits: config.trace.cache, embedderModel: config.trace.embedderModel },
    // Code assertions run only where allowed: always from the CLI, over HTTP with JUDGEFLOW_ALLOW_CODE.
    ...(config.code.allow ? { scripts: createScriptRunner(config.code) } : {}),
  }
  const runs = new RunService({
    store, registry, providers, evaluation, limits: config.limits, owner: options.owner,
    maxConcurrentRuns: config.runs.maxConcurrent, maxQueuedRuns: config.runs.maxQueued,
    leaseMs: config.runs.leaseMs, maxResumes: config.runs.maxResumes, shutdownGraceMs: config.runs.shutdownGraceMs, queue,
  })
  const rounds = new Rounds({ store, runs, providers })
  const datasets = new DatasetRuns({
    store, runs, registry, defaultJudge: () => providers.defaultJudgeModel(), configDir: config.evaluation.configDir, metrics, providers,
  })
  const online = new OnlineScoring({ store, runs, maxInFlight: config.otlp.scoringsInFlight })
  let pool: EvaluationPool | undefined
  return {
    config, registry, metrics, scorers, providers, store, runs, queue, rounds, datasets, online, retention, traceCache, evaluation,
    async loadCustomModules() {
      return {
        metrics: await loadMetricsFolder(config.evaluation.metricsDir, metrics),
        scorers: await loadScorersFolder(config.evaluation.scorersDir, scorers),
      }
    },
    startEvaluationWorkers(entry) {
      const { workers, timeLimitMs, metricsDir, scorersDir } = config.evaluation
      if (pool || !workers) return pool
      pool = new EvaluationPool({ entry, size: workers, timeLimitMs, metricsDir, scorersDir, traceCache, trace: evaluation.trace })
      evaluation.runner = pool
      return pool
    },
    directEvaluation() {
      return pool ? { ...evaluation, runner: refusingWhenQueued(pool, config.evaluation.maxQueued) } : evaluation
    },
    async close(graceMs) {
      online.stop()
      await retention?.stop()
      await datasets.close()
      await runs.drain(graceMs)
      await queue?.close()
      await store.close()
      await pool?.close()
    },
  }
}
