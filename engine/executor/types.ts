import type { SerializedError } from '../errors'
import type { RunStatus, StepStatus, Verdict } from '../schema/workflow'
import type { TokenUsage } from '../steps/types'

/** One execution (or skip) of one node: the unit that is committed and shown in the inspector. */
export interface StepRecord {
  node_id: string
  /** 1-based count of the times this node has been reached in the run. */
  attempt: number
  status: Exclude<StepStatus, 'pending' | 'running'>
  /** The node's config with references rendered: what the step actually received. */
  input?: unknown
  output?: unknown
  branch?: string
  error?: SerializedError
  /** Why a node was skipped, or why a retry re-runs its target. */
  reason?: string
  /** Set on a retry step that sent the run back to its target. */
  rerun?: { target: string, reason: string }
  started_at?: number
  finished_at?: number
  duration_ms?: number
  usage?: TokenUsage
  cached?: boolean
  pinned?: boolean
}

export type RunEvent
  = | { type: 'run.started', at: number, resumed: boolean }
    | { type: 'step.started', at: number, node_id: string, attempt: number, input: unknown }
    | { type: 'step.succeeded' | 'step.failed' | 'step.skipped' | 'step.cancelled', at: number, step: StepRecord }
    | { type: 'step.retrying', at: number, node_id: string, target: string, attempt: number, reason: string }
    | { type: 'run.finished', at: number, result: RunResult }

export type RunEventType = RunEvent['type']

export interface StepSummary {
  status: StepStatus
  /** How many times the node was reached (run or skipped). */
  attempts: number
  output: unknown
  error: SerializedError | null
  branch?: string
  duration_ms?: number
}

export interface RunResult {
  status: Exclude<RunStatus, 'queued' | 'running'>
  verdict: Verdict
  output: unknown
  error: SerializedError | null
  steps: Record<string, StepSummary>
  duration_ms: number
}

/** Committed step records of an earlier, interrupted execution, looked up while resuming. */
export type Journal = (nodeId: string, attempt: number) => StepRecord | undefined
