import type { EvaluationServices, Providers, RunOptions, StepRegistry, StorageLimits } from '../../engine'
import type { Store } from '../store'
import type { RunQueue } from './run-queue'

export interface RunServiceDeps {
  store: Store
  registry: StepRegistry
  providers: Providers
  /** The app's registries, worker pool and trace cache, for evaluator steps. */
  evaluation?: EvaluationServices
  /** How much a step and a run may render and store. */
  limits?: StorageLimits
  /** How long a stopping process lets its runs finish (JUDGEFLOW_SHUTDOWN_GRACE_MS, 10 s). */
  shutdownGraceMs?: number
  /** Runs executing at once; more wait in a queue. */
  maxConcurrentRuns?: number
  /** Runs waiting for a slot at most (JUDGEFLOW_MAX_QUEUED_RUNS, 1,000). */
  maxQueuedRuns?: number
  /** This process's name as a lease holder (default: host, pid and a token new at every start). */
  owner?: string
  /** How long a run's lease holds without a heartbeat (JUDGEFLOW_RUN_LEASE_MS, 15 s). */
  leaseMs?: number
  /** Resumes in a row without a new committed step before a run is failed (JUDGEFLOW_RUN_MAX_RESUMES, 2). */
  maxResumes?: number
  /** The clock of leases (tests move it). */
  now?: () => number
  /**
   * Where started runs execute: a queue shared by processes (PostgreSQL: pg-boss, which worker
   * processes take jobs from, `work`); without it, this process's own (`ProcessRunQueue`).
   */
  queue?: RunQueue
}

export interface ResumeOutcome {
  resumed: string[]
  interrupted: string[]
  /** Given up after too many resumes without progress. */
  failed: string[]
}

export interface StartRun {
  /** The run's id, when the caller recorded it before starting the run (a dataset run does); a new one otherwise. */
  id?: string
  definition: Record<string, unknown>
  workflowId?: string | null
  workflowVersion?: number | null
  input?: unknown
  options?: RunOptions
  /**
   * `workflowVersion` was taken as the workflow's current version from what this process read
   * earlier: the run is stored only while it still is, else `start` throws `NotCurrent`.
   */
  ifCurrent?: boolean
}
