import type { Providers, StepRegistry, Workflow } from '../../engine'
import type { MetricRegistry } from '../../engine/evaluator'
import type { RunService } from '../runs/run-service'
import type { Store } from '../store'

/**
 * A dataset run's progress as its followers hear it: `total` and `done` count case runs (a case
 * runs `repeat` times; a cancelled run is not done); `passed`, `failed` and `errored` count cases,
 * by the rule the report counts them by, so a run's last progress and its report agree.
 */
export interface DatasetRunProgress {
  id: string
  status: string
  total: number
  done: number
  /** Case runs that ended without running: not started once the budget was spent, or cancelled. */
  not_run: number
  passed: number
  failed: number
  errored: number
}

export interface DatasetRunsDeps {
  store: Store
  runs: RunService
  registry: StepRegistry
  /** The server's default judge, for the estimate and the fingerprint of a step that names none. */
  defaultJudge?: () => string
  /** Where evaluator steps read their config files, and the metrics they know: for the judge's fingerprint. */
  configDir?: string
  metrics?: MetricRegistry
  /** The app's providers: a key the workflow's models need and this process lacks refuses the start, not each case. */
  providers?: Providers
}

/** A dataset run's target as stored: a saved workflow's version, or an evaluator config with the case fields it reads. */
export type StoredTarget = { workflow_id: string, workflow_version: number } | { evaluator: Record<string, unknown>, fields: string[] }

/** The target's workflow as its case runs run it. */
export interface ResolvedTarget {
  definition: Record<string, unknown>
  workflow: Workflow
  workflowId: string | null
  workflowVersion: number | null
}

/** Why a dataset run stops when its process stops: its case runs are left to resume, not cancelled. */
export const STOPPING = 'the process is stopping'
