import { z } from 'zod'
import { JudgeflowError } from '~~/engine'
import { datasetNameSchema } from '~~/engine/datasets'
import { useJudgeflow } from '~~/server/utils/context'
import { casesOf, checkCasesBody, datasetCasesBody, presentDatasetSummary } from '~~/server/utils/datasets'
import { readBodyWith } from '~~/server/utils/http'

const bodySchema = checkCasesBody(z.object({ name: datasetNameSchema, ...datasetCasesBody }).strict())
  .refine(body => body.text !== undefined || body.cases !== undefined, { message: 'give either text (with format) or cases', path: ['text'] })

/** Imports a dataset: a file's text (CSV, JSONL, JSON, YAML) or cases, whole or not at all. */
export default defineEventHandler(async (event) => {
  const body = await readBodyWith(event, bodySchema)
  const { store } = useJudgeflow()
  const cases = (await casesOf(event, body))!
  if (await store.datasets.findByName(body.name)) throw new JudgeflowError('CONFLICT', `A dataset named "${body.name}" already exists: choose another name, or import into it as a new version.`)
  const row = await store.datasets.create(body.name, cases)
  setResponseStatus(event, 201)
  return { ...presentDatasetSummary(row), version: row.version }
})
