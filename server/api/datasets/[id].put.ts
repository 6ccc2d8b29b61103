import { z } from 'zod'
import { JudgeflowError } from '../../../engine'
import { checkCases, datasetFormats, datasetNameSchema, parseDatasetFile } from '../../../engine/datasets'
import { useJudgeflow } from '../../utils/context'
import { presentDatasetSummary } from '../../utils/datasets'
import { notFound, readBodyWith, routeId } from '../../utils/http'

const bodySchema = z.object({
  name: datasetNameSchema.optional(),
  format: z.enum(datasetFormats).optional(),
  text: z.string().optional(),
  cases: z.array(z.unknown()).optional(),
}).strict().refine(body => body.text === undefined || body.cases === undefined, { message: 'give either text (with format) or cases', path: ['text'] })
  .refine(body => body.text === undefined || body.format !== undefined, { message: 'is required with text: csv, jsonl, json or yaml', path: ['format'] })

/** Renames the dataset, and with new cases (a file's text or values) makes its next version. */
export default defineEventHandler(async (event) => {
  const body = await readBodyWith(event, bodySchema)
  const { store } = useJudgeflow()
  const id = routeId(event)
  const cases = body.text !== undefined
    ? parseDatasetFile(body.text, body.format!, { where: `the ${body.format!.toUpperCase()} file` }).cases
    : body.cases === undefined ? undefined : checkCases(body.cases)
  if (body.name) {
    const named = await store.datasets.findByName(body.name)
    if (named && named.id !== id) throw new JudgeflowError('CONFLICT', `A dataset named "${body.name}" already exists: choose another name.`)
  }
  const row = await store.datasets.update(id, { name: body.name, cases })
  if (!row) notFound('dataset', id)
  return { ...presentDatasetSummary(row), version: row.version }
})
