/**
 * The rows and claim options the store contract (core/store.ts) speaks of. The application layer
 * owns them: both stores (SQLite in `db/`, PostgreSQL in `db/pg/`) return these shapes, and `db/`
 * checks at compile time that its tables' rows are exactly them (`db/row-types.ts`). Times are
 * epoch milliseconds; JSON columns hold what the engine produced, as it produced it.
 */
import { unfinishedRunStatuses } from '../engine/schema/workflow'

/** A store method's answer: at once on SQLite, a promise on PostgreSQL. */
export type MaybePromise<T> = T | Promise<T>

/** Whether a run with this status has yet to finish (queued or running): what leases and takeovers hold on to. */
export const isUnfinishedStatus = (status: string): boolean => (unfinishedRunStatuses as readonly string[]).includes(status)

/** A step's statuses once it is committed for good: a resumed run replays these, and progress is the latest of them. */
export const committedStepStatuses = ['succeeded', 'failed', 'skipped'] as const

export interface WorkflowRow {
  id: string
  name: string
  description: string | null
  currentVersion: number
  createdAt: number
  updatedAt: number
}

export interface WorkflowWithDefinition extends WorkflowRow {
  version: number
  definition: Record<string, unknown>
}

export interface RunRow {
  id: string
  workflowId: string | null
  workflowVersion: number | null
  /** The definition as run, so a run can be resumed and inspected whatever happens to the workflow. */
  definition: Record<string, unknown>
  input: unknown
  options: Record<string, unknown> | null
  status: string
  verdict: string | null
  output: unknown
  error: unknown
  /** The process that holds the run (`host:pid:token`): held while that process's lease has not expired. */
  leaseOwner: string | null
  /** Resumes in a row that committed no new step, and when the latest committed step had finished at the last resume. */
  resumesWithoutProgress: number
  lastStepAtResume: number | null
  createdAt: number
  startedAt: number | null
  finishedAt: number | null
  durationMs: number | null
}

/** A run without its definition, input and output: a list stays small however large runs are. */
export type RunSummaryRow = Omit<RunRow, 'definition' | 'input' | 'output'>

export interface NewRun {
  id?: string
  workflowId?: string | null
  workflowVersion?: number | null
  definition: Record<string, unknown>
  input?: unknown
  options?: Record<string, unknown>
  status?: 'queued' | 'running'
  /** The process that takes it on (its lease, renewed by its heartbeat, is its row in `lease_owners`). */
  owner?: string
}

/** The row a new run is stored as, in either store. */
export function newRunRow(run: NewRun, now = Date.now()): RunRow {
  return {
    id: run.id ?? crypto.randomUUID(),
    workflowId: run.workflowId ?? null,
    workflowVersion: run.workflowVersion ?? null,
    definition: run.definition,
    input: run.input ?? {},
    options: run.options ?? {},
    status: run.status ?? 'queued',
    verdict: null,
    output: null,
    error: null,
    leaseOwner: run.owner ?? null,
    resumesWithoutProgress: 0,
    lastStepAtResume: null,
    createdAt: now,
    startedAt: null,
    finishedAt: null,
    durationMs: null,
  }
}

export interface StepRunRow {
  id: number
  runId: string
  nodeId: string
  attempt: number
  status: string
  input: unknown
  output: unknown
  branch: string | null
  error: unknown
  reason: string | null
  rerun: { target: string, reason: string } | null
  usage: { input_tokens: number, output_tokens: number } | null
  cached: boolean | null
  pinned: boolean | null
  startedAt: number | null
  finishedAt: number | null
  durationMs: number | null
}

/** One entry of a run's event log; its id is the SSE event id, so a client can resume from Last-Event-ID. */
export interface RunEventRow {
  id: number
  runId: string
  type: string
  nodeId: string | null
  attempt: number | null
  data: Record<string, unknown>
  at: number
}

export interface ExperimentRow {
  id: string
  name: string
  definition: Record<string, unknown>
  currentBest: string
  createdAt: number
  updatedAt: number
}

export interface ExperimentRoundRow {
  id: string
  experimentId: string
  number: number
  status: string
  /** The current best when the round started. */
  currentBest: string
  runs: Array<{ variant: string, document: string, run: number, run_id: string }>
  judgments: unknown[]
  report: Record<string, unknown> | null
  error: unknown
  createdAt: number
  finishedAt: number | null
}

export interface DatasetRow {
  id: string
  name: string
  currentVersion: number
  caseCount: number
  createdAt: number
  updatedAt: number
}

export interface DatasetWithCases extends DatasetRow {
  version: number
  cases: unknown[]
}

/** One page of a dataset version's cases (`DatasetRepository.casesPage`), with the version's case count. */
export interface DatasetCasesPage extends DatasetRow {
  version: number
  /** The version's cases in all. */
  total: number
  /** Cases `offset`… in order: at most `limit`, and at most `maxCharacters` of JSON after the first. */
  cases: unknown[]
}

/** A run of a workflow (or an evaluator alone) over every case of a dataset version. */
export interface DatasetRunRow {
  id: string
  datasetId: string
  datasetVersion: number
  /** `{ workflow_id, workflow_version }`, or `{ evaluator: <config> }`. */
  target: Record<string, unknown>
  /** concurrency, repeat, score_step, gates, baseline_run_id. */
  options: Record<string, unknown>
  status: string
  error: unknown
  report: Record<string, unknown> | null
  createdAt: number
  finishedAt: number | null
}

/** One case and repeat of a dataset run: written before its run starts (with the run's id) and when it ends. */
export interface DatasetRunCaseRow {
  datasetRunId: string
  caseId: string
  repeat: number
  status: string
  runId: string | null
  result: Record<string, unknown> | null
  updatedAt: number
}

/** One process's lease: held until `expiresAt`, whatever the number of runs it holds. */
export interface Lease {
  owner: string
  expiresAt: number
}

/** A run, the process that holds it and until when that process's lease holds (null: no process, or no lease row). */
export interface RunLease {
  id: string
  status: string
  leaseOwner: string | null
  leaseExpiresAt: number | null
}

/** A lease holder as the takeover judges it. */
export type Holder = Pick<RunLease, 'leaseOwner' | 'leaseExpiresAt'>

/**
 * Whether a run's holder lets it go at `now`: no process holds it, its holder's lease has lapsed
 * (or was never written), or its holder is known to be gone (`isGone`, asked last). The one rule
 * the takeover judges by and the stores' claims check again, in their transaction, before they write.
 */
export function leaseLetsGo(holder: Holder, now: number, isGone: (owner: string) => boolean): boolean {
  return !holder.leaseOwner || holder.leaseExpiresAt === null || holder.leaseExpiresAt <= now || isGone(holder.leaseOwner)
}

/** A started run's resumes so far: in a row without a new committed step, and when its last committed step was at the last resume. */
export interface ResumeProgress {
  resumesWithoutProgress: number
  lastStepAtResume: number | null
}

/** What the application decides for a started run taken over: resume it (counting this resume), or give it up, saying why. */
export type ResumeDecision = { resumesWithoutProgress: number } | { giveUp: string }

/** A run taken over by this process. */
export interface Takeover {
  run: RunRow
  /** Set when the run must not be resumed again: the reason to mark it failed. */
  giveUp?: string
  /** The claim also marked the queued run started (running, with its start time): executing it writes no start of its own. */
  started?: boolean
}

export interface TakeoverOptions {
  owner: string
  now: number
  lease: Lease
  /**
   * Whether a started run taken over resumes, from its resumes so far and the time of its last
   * committed step (null: none): the application layer's rule, asked inside the claim's transaction.
   */
  resume: (run: ResumeProgress, lastStepAt: number | null) => ResumeDecision
  /** Whether the lease may be taken (expired, or its holder gone): the application layer knows processes. */
  isFree: (holder: Holder) => boolean
  /** Runs this process already has. */
  skip: (runId: string) => boolean
}

export interface ClaimOneOptions extends Omit<TakeoverOptions, 'skip'> {
  /** The process that stored the run and queued it: a run still queued under its name is free to take. */
  from?: string
}

export interface RetentionPolicy {
  /** The clock of this prune (epoch ms). */
  now: number
  /** Finished runs that ended (or, never started, were created) longer ago than this are deleted, and online spans received longer ago. */
  maxAgeMs?: number
  /** Each workflow keeps its newest runs up to this number; finished runs beyond it are deleted. */
  keepPerWorkflow?: number
  /** The LLM response cache keeps at most this many entries, those used most recently. */
  cacheMaxEntries?: number
  /** Rows deleted per transaction (500 by default): the database is free again between two batches. */
  batchSize?: number
}

export interface PruneResult {
  /** Runs deleted, with their steps and events. */
  runs: number
  /** Lease rows of processes whose lease expired and that hold no unfinished run. */
  leaseOwners: number
  cacheEntries: number
  /** Online spans received before the age limit, with their decisions (never one still queued for scoring). */
  onlineSpans: number
  reviewLeases: number // Review leases that ran out; skipped marks, queues, items and labels stay (people's labels are data).
}

/** A run whose input and output may each be a marker of a value too large to carry whole. */
export type BoundedRun = Omit<RunRow, 'input' | 'output'> & { input: unknown, output: unknown }

/** A run with its steps, within the answer's limits. */
export interface RunView {
  run: BoundedRun
  steps: StepRunRow[]
}

/** One stored value whole: a step's input or output at an attempt, or the run's own. */
export interface StoredValueRef {
  field: 'input' | 'output'
  nodeId?: string
  attempt?: number
}
