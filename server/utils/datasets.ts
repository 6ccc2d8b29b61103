import type { H3Event } from 'h3'
import { z } from 'zod'
import { datasetFormats, type DatasetCase, type DatasetReport } from '~~/engine/datasets'
import type { DatasetRow, DatasetRunRow } from '~~/core'
import { judgeflowConfig } from './config'
import { readImportAside } from './imports'

/** A dataset as lists show it: no cases. */
export function presentDatasetSummary(row: DatasetRow) {
  return { id: row.id, name: row.name, current_version: row.currentVersion, case_count: row.caseCount, created_at: row.createdAt, updated_at: row.updatedAt }
}

/** A dataset run without its report (lists, and the run while it goes on). */
export function presentDatasetRun(row: Omit<DatasetRunRow, 'report'>) {
  return {
    id: row.id, dataset_id: row.datasetId, dataset_version: row.datasetVersion, target: row.target, options: row.options,
    status: row.status, error: row.error, created_at: row.createdAt, finished_at: row.finishedAt,
  }
}

/**
 * The report as the report page takes it: without each result's confidence and tokens, which the
 * page does not show (a fifth of a 10,000-case report). The report's JSON contract is
 * `GET /api/dataset-runs/:id/report`. Made once per report object, so a kept report is shaped once.
 */
export function reportForPage(report: DatasetReport): DatasetReport {
  let shaped = pageReports.get(report)
  if (!shaped) {
    shaped = { ...report, results: report.results.map(({ confidence: _confidence, tokens: _tokens, ...shown }) => shown) }
    pageReports.set(report, shaped)
  }
  return shaped
}
const pageReports = new WeakMap<DatasetReport, DatasetReport>()

/** A dataset's cases in a request body: a file's text in one of the formats, or the cases as values. */
export const datasetCasesBody = {
  format: z.enum(datasetFormats).optional(),
  text: z.string().optional(),
  cases: z.array(z.unknown()).optional(),
}

type CasesBody = { format?: (typeof datasetFormats)[number], text?: string, cases?: unknown[] }

/** The body's `text` and `format` must come together, and not with `cases`. */
export function checkCasesBody<T extends CasesBody>(schema: z.ZodType<T>) {
  return schema
    .refine(body => body.text === undefined || body.cases === undefined, { message: 'give either text (with format) or cases', path: ['text'] })
    .refine(body => body.text === undefined || body.format !== undefined, { message: 'is required with text: csv, jsonl, json or yaml', path: ['format'] })
}

/** The cases the body gives, read whole (on the import worker) or refused with each bad row named; undefined when it gives none. */
export async function casesOf(event: H3Event, body: CasesBody): Promise<DatasetCase[] | undefined> {
  if (body.text !== undefined) {
    const options = { where: `the ${body.format!.toUpperCase()} file`, maxDepth: judgeflowConfig().maxJsonDepth }
    return (await readImportAside(event, { kind: 'file', text: body.text, format: body.format!, options })).cases
  }
  return body.cases === undefined ? undefined : readImportAside(event, { kind: 'cases', cases: body.cases })
}
