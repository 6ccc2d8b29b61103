import { z } from 'zod'
import { toCsv, toJsonl, type DatasetCase } from '~~/engine/datasets'
import { useJudgeflow } from '~~/server/utils/context'
import { notFound, readQueryWith, routeId } from '~~/server/utils/http'
import { wholeNumber } from '~~/server/utils/parameters'

const querySchema = z.object({ format: z.enum(['jsonl', 'csv']).default('jsonl'), version: wholeNumber().optional() })

/** The dataset's cases as a JSONL or CSV file. */
export default defineEventHandler(async (event) => {
  const { format, version } = await readQueryWith(event, querySchema)
  const dataset = await useJudgeflow().store.datasets.get(routeId(event), version)
  if (!dataset) notFound(version ? `version ${version} of dataset` : 'dataset', routeId(event))
  const cases = dataset.cases as DatasetCase[]
  const fileName = `${dataset.name.replace(/[^\w.-]+/g, '-')}-v${dataset.version}.${format}`
  setResponseHeader(event, 'content-type', format === 'csv' ? 'text/csv; charset=utf-8' : 'application/x-ndjson; charset=utf-8')
  setResponseHeader(event, 'content-disposition', `attachment; filename="${fileName}"`)
  return format === 'csv' ? toCsv(cases) : toJsonl(cases)
})
