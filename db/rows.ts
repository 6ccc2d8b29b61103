/**
 * The row shapes and claim options the store contract (core/store.ts) speaks of, as the SQLite
 * schema defines them: types only, from the modules that define them, so that the contract does
 * not import the stores that implement it.
 */
export type { DatasetRow, DatasetRunCaseRow, DatasetRunRow, DatasetWithCases } from './repositories/datasets'
export type { ExperimentRoundRow, ExperimentRow } from './repositories/experiments'
export type { NewRun, RunEventRow, RunRow, RunSummaryRow, StepRunRow } from './repositories/runs'
export type { Holder, Lease, RunLease } from './repositories/run-leases'
export type { WorkflowRow, WorkflowWithDefinition } from './repositories/workflows'
export type { ClaimOneOptions, ResumeDecision, ResumeProgress, Takeover, TakeoverOptions } from './run-takeover'
export type { PruneResult, RetentionPolicy } from './retention'
export type { RunView, StoredValueRef } from './bounded-view'
