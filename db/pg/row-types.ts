import type { DatasetRow, DatasetRunCaseRow, DatasetRunRow, ExperimentRoundRow, ExperimentRow, RunEventRow, RunRow, StepRunRow, WorkflowRow } from '../../core/rows'
import type { datasetRunCases, datasetRuns, datasets, experimentRounds, experiments, runEvents, runs, stepRuns, workflows } from './schema'

/** The PostgreSQL tables' rows are exactly the application layer's rows too (see db/row-types.ts). */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false

export const postgresRowsMatch: {
  workflows: Same<WorkflowRow, typeof workflows.$inferSelect>
  runs: Same<RunRow, typeof runs.$inferSelect>
  stepRuns: Same<StepRunRow, typeof stepRuns.$inferSelect>
  runEvents: Same<RunEventRow, typeof runEvents.$inferSelect>
  experiments: Same<ExperimentRow, typeof experiments.$inferSelect>
  experimentRounds: Same<ExperimentRoundRow, typeof experimentRounds.$inferSelect>
  datasets: Same<DatasetRow, typeof datasets.$inferSelect>
  datasetRuns: Same<DatasetRunRow, typeof datasetRuns.$inferSelect>
  datasetRunCases: Same<DatasetRunCaseRow, typeof datasetRunCases.$inferSelect>
} = {
  workflows: true, runs: true, stepRuns: true, runEvents: true, experiments: true, experimentRounds: true,
  datasets: true, datasetRuns: true, datasetRunCases: true,
}
