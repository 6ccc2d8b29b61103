/** What the datasets API answers, as its handlers type it (see api.ts). */
import type { Workflow } from '../../engine/schema/workflow'
import type { DatasetCase, DatasetReport } from '../../engine/datasets'
import type { ApiAnswer } from './api'

export type DatasetSummary = ApiAnswer<'/api/datasets'>[number]
/** GET /api/datasets/:id: the database keeps the cases as JSON, checked with the engine's schema when saved. */
export type DatasetDetail = Omit<ApiAnswer<'/api/datasets/:id'>, 'cases'> & { cases: DatasetCase[] }
export type DatasetVersion = ApiAnswer<'/api/datasets/:id/versions'>[number]
export type DatasetRunSummary = ApiAnswer<'/api/datasets/:id/runs'>[number]
/** GET /api/dataset-runs/:id: the report is the engine's, written when the run ends. */
export type DatasetRunDetail = Omit<ApiAnswer<'/api/dataset-runs/:id'>, 'report'> & { report: DatasetReport | null }
export type DatasetRunComparison = ApiAnswer<'/api/dataset-runs/:id/compare'>
/** POST /api/datasets/import-promptfoo: the dataset it created; the workflow (not saved) is the engine's definition. */
export type PromptfooImportAnswer = Omit<ApiAnswer<'/api/datasets/import-promptfoo', 'post'>, 'workflow'> & { workflow?: Workflow }
