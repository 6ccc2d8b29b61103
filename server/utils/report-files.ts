import {
  datasetReportToHtml, datasetReportToJunit, datasetReportToMarkdown, datasetResultsToCsv, datasetResultsToJsonl,
  type DatasetCase, type DatasetReport,
} from '~~/engine/datasets'

/** The report as a file: its media type, its extension, and how it is written (Markdown and HTML show the cases' inputs). */
export const REPORT_FILES = {
  markdown: { type: 'text/markdown; charset=utf-8', extension: 'md', write: datasetReportToMarkdown },
  junit: { type: 'application/xml; charset=utf-8', extension: 'xml', write: (report: DatasetReport) => datasetReportToJunit(report) },
  html: { type: 'text/html; charset=utf-8', extension: 'html', write: datasetReportToHtml },
  csv: { type: 'text/csv; charset=utf-8', extension: 'csv', write: (report: DatasetReport) => datasetResultsToCsv(report) },
  jsonl: { type: 'application/x-ndjson; charset=utf-8', extension: 'jsonl', write: (report: DatasetReport) => datasetResultsToJsonl(report) },
} satisfies Record<string, { type: string, extension: string, write: (report: DatasetReport, cases?: readonly DatasetCase[]) => string }>

export type ReportFileFormat = keyof typeof REPORT_FILES

/** The download's name: the dataset's name, its version and the run. */
export function reportFileName(report: DatasetReport, runId: string, format: ReportFileFormat): string {
  return `${report.dataset.name.replace(/[^\w.-]+/g, '-')}-v${report.dataset.version}-${runId.slice(0, 8)}.${REPORT_FILES[format].extension}`
}
