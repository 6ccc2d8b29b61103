import { z } from 'zod'
import { JudgeflowError } from '../../../engine'
import { checkCases, datasetFormats, datasetNameSchema, parseDatasetFile } from '../../../engine/datasets'
import { useJudgeflow } from '../../utils/context'
import { presentDatasetSummary } from '../../utils/datasets'
import { readBodyWith } from '../../utils/http'

const bodySchema = z.object({
  name: datasetNameSchema,
  /** A file's text in one of the formats, or `cases` as values. */
  format: z.enum(datasetFormats).optional(),
  text: z.string().optional(),
  cases: z.array(z.unknown()).optional(),
}).strict().refine(body => (body.text === undefined) !== (body.cases === undefined), { message: 'give either text (with format) or cases', path: ['text'] })
  .refine(body => body.text === undefined || body.format !== undefined, { message: 'is required with text: csv, jsonl, json or yaml', path: ['format'] })

/** Imports a dataset: a file's text (CSV, JSONL, JSON, YAML) or cases, whole or not at all. */
export default defineEventHandler(async (event) => {
  const body = await readBodyWith(event, bodySchema)
  const { store } = useJudgeflow()
  const cases = body.text !== undefined
    ? parseDatasetFile(body.text, body.format!, { where: `the ${body.format!.toUpperCase()} file` }).cases
    : checkCases(body.cases!)
  if (await store.datasets.findByName(body.name)) throw new JudgeflowError('CONFLICT', `A dataset named "${body.name}" already exists: choose another name, or import into it as a new version.`)
  const row = await store.datasets.create(body.name, cases)
  setResponseStatus(event, 201)
  return { ...presentDatasetSummary(row), version: row.version }
})
