import { z } from 'zod'
import { JudgeflowError } from '~~/engine'
import { HTML_REPORT_POLICY, type DatasetCase } from '~~/engine/datasets'
import { useJudgeflow } from '~~/server/utils/context'
import { notFound, readQueryWith, routeId } from '~~/server/utils/http'
import { REPORT_FILES, reportFileName } from '~~/server/utils/report-files'

const querySchema = z.object({ format: z.enum(['json', 'markdown', 'junit', 'html', 'csv', 'jsonl']).default('json') })

/** The finished dataset run's report: JSON (DESIGN's contract), or a file: Markdown, JUnit XML, HTML, the results as CSV or JSONL. */
export default defineEventHandler(async (event) => {
  const { format } = await readQueryWith(event, querySchema)
  const { datasets, store } = useJudgeflow()
  const detail = await datasets.detail(routeId(event))
  if (!detail) notFound('dataset run', routeId(event))
  const { row, report } = detail
  if (!report) throw new JudgeflowError('CONFLICT', `Dataset run "${row.id}" is ${row.status}: its report is written when it ends.`)
  if (format === 'json') return report
  const file = REPORT_FILES[format]
  // Markdown and HTML show the cases' inputs and labels; the report does not hold them, the dataset version does.
  const cases = format === 'markdown' || format === 'html' ? (await store.datasets.get(report.dataset.id, report.dataset.version))?.cases as DatasetCase[] | undefined : undefined
  setResponseHeader(event, 'content-type', file.type)
  setResponseHeader(event, 'content-disposition', `attachment; filename="${reportFileName(report, row.id, format)}"`)
  if (format === 'html') setResponseHeader(event, 'content-security-policy', HTML_REPORT_POLICY)
  return file.write(report, cases)
})
