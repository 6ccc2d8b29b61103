import { z } from 'zod'
import { JudgeflowError } from '../../../../engine'
import { datasetReportToJunit, datasetReportToMarkdown } from '../../../../engine/datasets'
import { useJudgeflow } from '../../../utils/context'
import { notFound, readQueryWith, routeId } from '../../../utils/http'

const querySchema = z.object({ format: z.enum(['json', 'markdown', 'junit']).default('json') })

/** The finished dataset run's report: JSON (DESIGN's contract), Markdown, or JUnit XML. */
export default defineEventHandler(async (event) => {
  const { format } = await readQueryWith(event, querySchema)
  const detail = await useJudgeflow().datasets.detail(routeId(event))
  if (!detail) notFound('dataset run', routeId(event))
  const { row, report } = detail
  if (!report) throw new JudgeflowError('CONFLICT', `Dataset run "${row.id}" is ${row.status}: its report is written when it ends.`)
  if (format === 'json') return report
  setResponseHeader(event, 'content-type', format === 'junit' ? 'application/xml; charset=utf-8' : 'text/markdown; charset=utf-8')
  return format === 'junit' ? datasetReportToJunit(report) : datasetReportToMarkdown(report)
})
