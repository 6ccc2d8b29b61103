/**
 * What the application layer needs of a database: repositories of workflows, runs, leases,
 * experiments, settings and the LLM response cache. `db/` is the SQLite implementation
 * (`createSqliteStore`); another (PostgreSQL) satisfies the same interface. Every method may
 * answer with a promise, and the application layer awaits each: SQLite answers at once, a
 * networked database later. The row shapes are this layer's own (core/rows.ts); both stores return them.
 */
import type { Journal, ResponseCache, ResponseLimits, RunEvent } from '../engine'
import type {
  DatasetCasesPage, DatasetRow, DatasetRunCaseRow, DatasetRunRow, DatasetWithCases, ExperimentRoundRow, ExperimentRow, Lease, NewRun, RunEventRow,
  RunLease, RunRow,
  ClaimOneOptions, PruneResult, RetentionPolicy, RunSummaryRow, RunView, StepRunRow, StoredValueRef, Takeover, TakeoverOptions,
  WorkflowRow, WorkflowWithDefinition,
} from './rows'
import type { MaybePromise } from './rows'
import type { OnlineRepository } from './online-rows'
import type { ReviewRepository } from './review-rows'

export type {
  RunView, StoredValueRef, DatasetCasesPage, DatasetRow, DatasetRunCaseRow, DatasetRunRow, DatasetWithCases,
  PruneResult, RetentionPolicy, ExperimentRoundRow, ExperimentRow, Lease, RunEventRow, RunRow, RunSummaryRow, StepRunRow, WorkflowRow, WorkflowWithDefinition,
}

export type { MaybePromise } from './rows'

/**
 * The largest number a store keeps in an integer column (a version, an attempt, a round's number):
 * PostgreSQL's `integer`. A larger one asked for is refused where it comes in (the API's
 * parameters and bodies): PostgreSQL would fail the query (22003) where SQLite finds nothing.
 */
export const MAX_STORED_INTEGER = 2_147_483_647

export type RunFinished = Extract<RunEvent, { type: 'run.finished' }>

interface Definition { name: string, description?: string, [key: string]: unknown }

export interface WorkflowRepository {
  list(): MaybePromise<WorkflowRow[]>
  /** The workflow at its current version, or at `version`; null when not found. */
  get(id: string, version?: number): MaybePromise<WorkflowWithDefinition | null>
  create(definition: Definition): MaybePromise<WorkflowWithDefinition>
  /** A new version; with `baseVersions`, only while the current version is one of them (else VERSION_CONFLICT). */
  update(id: string, definition: Definition, options?: { baseVersions?: readonly number[] }): MaybePromise<WorkflowWithDefinition | null>
  /** Deletes the workflow with its versions and runs. */
  delete(id: string): MaybePromise<boolean>
  /**
   * Creates the workflows the first time it is asked with `marker` (a setting, set in the same
   * transaction); the number created, 0 every later time.
   */
  seed(marker: string, definitions: Definition[]): MaybePromise<number>
}

export interface RunRepository {
  /** Stores a new run; resolves once it is durable. */
  create(run: NewRun): Promise<RunRow>
  get(id: string): MaybePromise<RunRow | null>
  list(workflowId: string, options?: { limit?: number, before?: number }): MaybePromise<RunSummaryRow[]>
  steps(runId: string): MaybePromise<StepRunRow[]>
  eventsAfter(runId: string, afterId?: number, limit?: number): MaybePromise<RunEventRow[]>
  /** The run with its steps for one answer: values past `limits` are markers, and no more than the limits is read. */
  view(id: string, limits: ResponseLimits): MaybePromise<RunView | null>
  /** One stored input or output whole: a step's at an attempt (`nodeId`, `attempt`), or else the run's own. */
  value(runId: string, ref: StoredValueRef): MaybePromise<{ value: unknown } | undefined>
  statuses(ids: string[]): MaybePromise<Map<string, string>>
  /** The ids of the workflow's queued and running runs. */
  unfinished(workflowId: string): MaybePromise<string[]>
  /** Marks the run running under `owner`: a run no process holds yet is taken, one another process holds is left alone. */
  markStarted(id: string, owner: string): Promise<void>
  /**
   * Stores events of the run in one commit, in their order (a step's start with its end), each with
   * the step it carries; a run.finished one also ends the run (its status, verdict, output, error).
   * Resolves once durable (writes of concurrent runs may share a commit). With `holder`, the write
   * is fenced: it happens only while the run is held by `holder`, checked in the same statement or
   * transaction as the write: all of the events, or none and null when another process has taken the run over.
   */
  write(runId: string, events: readonly (RunEvent | RunFinished)[], holder?: string): Promise<RunEventRow[] | null>
  /** The committed steps of a run, for resuming it. */
  journal(runId: string): MaybePromise<Journal>
}

/** What claiming orphaned runs needs: the claimer, the clock, the new lease, the resume limit and the liveness check. */
export type ClaimOptions = TakeoverOptions

export interface LeaseRepository {
  /**
   * Holds `lease.owner`'s lease until `lease.expiresAt`: one row per process, so a heartbeat is
   * one write however many runs the process holds. A run is held while its owner's lease holds.
   */
  renew(lease: Lease): MaybePromise<void>
  /** Lets go of the runs `owner` still holds. */
  release(owner: string, now: number): MaybePromise<void>
  get(runId: string): MaybePromise<RunLease | null>
  /**
   * Claims the unfinished runs no live process holds, oldest first, counting each resume (on
   * PostgreSQL, at most `ORPHANS_PER_PASS` a call: the next call takes the next ones).
   */
  claimOrphans(options: ClaimOptions): MaybePromise<Takeover[]>
  /**
   * Claims one run for the worker that took its job: still queued under the name of the process
   * that queued it (`from`), or held by no live process (counted as a resume). Null when it has
   * ended or a live process holds it.
   */
  claimQueued(runId: string, options: ClaimOneOptions): MaybePromise<Takeover | null>
  /** Claims an orphaned run for a person to mark it interrupted; the reason to record, or NOT_CANCELLABLE. */
  claimToInterrupt(runId: string, options: Omit<ClaimOptions, 'resume' | 'skip'>): MaybePromise<string>
}

type RoundPatch = Partial<Pick<ExperimentRoundRow, 'status' | 'runs' | 'judgments' | 'report' | 'error' | 'finishedAt'>>
type ExperimentDefinition = { name: string, current_best: string } & Record<string, unknown>

export interface ExperimentRepository {
  list(): MaybePromise<ExperimentRow[]>
  get(id: string): MaybePromise<ExperimentRow | null>
  create(definition: ExperimentDefinition): MaybePromise<ExperimentRow>
  update(id: string, definition: ExperimentDefinition): MaybePromise<ExperimentRow | null>
  delete(id: string): MaybePromise<boolean>
  rounds(experimentId: string): MaybePromise<ExperimentRoundRow[]>
  round(experimentId: string, number: number): MaybePromise<ExperimentRoundRow | null>
  /** Whether the round exists, read without its runs, judgments and report. */
  roundExists(experimentId: string, number: number): MaybePromise<boolean>
  /** A new round numbered after the last one. */
  createRound(experimentId: string, currentBest: string): MaybePromise<ExperimentRoundRow>
  updateRound(id: string, patch: RoundPatch): MaybePromise<void>
  /** Rounds still running or being judged. */
  openRounds(): MaybePromise<ExperimentRoundRow[]>
}

export interface SettingsRepository {
  get<T>(key: string): MaybePromise<T | null>
  set(key: string, value: unknown): MaybePromise<void>
}

type DatasetRunPatch = Partial<Pick<DatasetRunRow, 'status' | 'error' | 'report' | 'finishedAt'>>

export interface DatasetPageRequest {
  version?: number
  offset: number
  limit: number
  maxCharacters: number
}

export interface DatasetRepository {
  list(): MaybePromise<DatasetRow[]>
  /** The dataset with the cases of its current version, or of `version`; null when either is not found. */
  get(id: string, version?: number): MaybePromise<DatasetWithCases | null>
  /**
   * One page of the cases of the current version, or of `version`: from `offset` (0 the first) in
   * order, at most `limit`, and no case after the first once the page holds `maxCharacters` of JSON;
   * with the version's case count. Only the page reaches the process, however large the version.
   * Null when the dataset or the version is not found.
   */
  casesPage(id: string, page: DatasetPageRequest): MaybePromise<DatasetCasesPage | null>
  findByName(name: string): MaybePromise<DatasetRow | null>
  versions(id: string): MaybePromise<Array<{ version: number, caseCount: number, createdAt: number }>>
  create(name: string, cases: unknown[]): MaybePromise<DatasetWithCases>
  /** New cases make a new version; a name alone does not. */
  update(id: string, fields: { name?: string, cases?: unknown[] }): MaybePromise<DatasetWithCases | null>
  delete(id: string): MaybePromise<boolean>
  createRun(run: Pick<DatasetRunRow, 'datasetId' | 'datasetVersion' | 'target' | 'options'>): MaybePromise<DatasetRunRow>
  getRun(id: string): MaybePromise<DatasetRunRow | null>
  /** The dataset run without its report (which may be large): whether it is there, and how it stands. */
  getRunSummary(id: string): MaybePromise<Omit<DatasetRunRow, 'report'> | null>
  /** A dataset's runs, newest first, without their reports. */
  runs(datasetId: string): MaybePromise<Array<Omit<DatasetRunRow, 'report'>>>
  /** Dataset runs still going on. */
  openRuns(): MaybePromise<DatasetRunRow[]>
  updateRun(id: string, patch: DatasetRunPatch): MaybePromise<void>
  runCases(datasetRunId: string): MaybePromise<DatasetRunCaseRow[]>
  /** A case's run as under way (written before the run starts), or its result. */
  saveRunCase(row: Omit<DatasetRunCaseRow, 'updatedAt'>): MaybePromise<void>
}

export interface RetentionRepository {
  /** Deletes what `policy` lets go (old runs with their steps and events, gone processes' leases, cache entries over the bound), in batches. */
  prune(policy: RetentionPolicy): Promise<PruneResult>
}

export interface Store {
  workflows: WorkflowRepository
  runs: RunRepository
  leases: LeaseRepository
  experiments: ExperimentRepository
  settings: SettingsRepository
  datasets: DatasetRepository
  /** The LLM response cache, kept with the rest so it survives restarts. */
  cache: ResponseCache
  retention: RetentionRepository
  /** Online scoring: rules, received spans and the decisions taken for them. */
  online: OnlineRepository
  /** Human review: queues, their items, the labels people give and the leases handing items out. */
  review: ReviewRepository
  close(): MaybePromise<void>
}
