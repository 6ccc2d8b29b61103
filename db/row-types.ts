import type { DatasetRow, DatasetRunCaseRow, DatasetRunRow, ExperimentRoundRow, ExperimentRow, RunEventRow, RunRow, StepRunRow, WorkflowRow } from '../core/rows'
import type { OnlineDecisionRow, OnlineRuleRow, OnlineSpanRow } from '../core/online-rows'
import type { ReviewItemRow, ReviewLabelRow, ReviewLeaseRow, ReviewQueueRow } from '../core/review-rows'
import type * as sqliteTables from './schema'

/**
 * The rows the application layer defines (core/rows.ts) are exactly the rows of the tables, in
 * both stores: a column added, dropped or retyped on one side and not the other fails to compile
 * here (SQLite) or in db/pg/row-types.ts (PostgreSQL).
 */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false
type Row<T> = T extends { $inferSelect: infer R } ? R : never

/** For a store's tables, whether each table's row is the application layer's row of it. */
export interface RowsMatch<Tables extends Record<keyof typeof ALL_ROWS_MATCH, unknown>> {
  workflows: Same<WorkflowRow, Row<Tables['workflows']>>
  runs: Same<RunRow, Row<Tables['runs']>>
  stepRuns: Same<StepRunRow, Row<Tables['stepRuns']>>
  runEvents: Same<RunEventRow, Row<Tables['runEvents']>>
  experiments: Same<ExperimentRow, Row<Tables['experiments']>>
  experimentRounds: Same<ExperimentRoundRow, Row<Tables['experimentRounds']>>
  datasets: Same<DatasetRow, Row<Tables['datasets']>>
  datasetRuns: Same<DatasetRunRow, Row<Tables['datasetRuns']>>
  datasetRunCases: Same<DatasetRunCaseRow, Row<Tables['datasetRunCases']>>
  onlineRules: Same<OnlineRuleRow, Row<Tables['onlineRules']>>
  onlineSpans: Same<OnlineSpanRow, Row<Tables['onlineSpans']>>
  onlineDecisions: Same<OnlineDecisionRow, Row<Tables['onlineDecisions']>>
  reviewQueues: Same<ReviewQueueRow, Row<Tables['reviewQueues']>>
  reviewItems: Same<ReviewItemRow, Row<Tables['reviewItems']>>
  reviewLabels: Same<ReviewLabelRow, Row<Tables['reviewLabels']>>
  reviewLeases: Same<ReviewLeaseRow, Row<Tables['reviewLeases']>>
}

/** What a store whose rows all match is: every entry true. */
export const ALL_ROWS_MATCH = {
  workflows: true, runs: true, stepRuns: true, runEvents: true, experiments: true, experimentRounds: true,
  datasets: true, datasetRuns: true, datasetRunCases: true, onlineRules: true, onlineSpans: true, onlineDecisions: true,
  reviewQueues: true, reviewItems: true, reviewLabels: true, reviewLeases: true,
} as const

export const sqliteRowsMatch: RowsMatch<typeof sqliteTables> = ALL_ROWS_MATCH
