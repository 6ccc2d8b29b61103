import { ingestSpans } from '~~/core/online/ingest'
import { useJudgeflow } from '~~/server/utils/context'
import { judgeflowConfig } from '~~/server/utils/config'
import { assertSpanRate, exportAnswer, readExportRequest } from '~~/server/utils/otlp'

/**
 * OTLP/HTTP trace export (JSON, gzip taken): the GenAI spans are stored with every enabled online
 * rule's decision for each, and acknowledged once both have committed.
 */
export default defineEventHandler(async (event) => {
  assertSpanRate(event)
  const read = await readExportRequest(event, judgeflowConfig().otlp)
  assertSpanRate(event, read.spans.length + read.rejected.count)
  await ingestSpans(useJudgeflow().store, read.spans)
  return exportAnswer(read)
})
