import { z } from 'zod'
import { JudgeflowError } from '~~/engine'
import { datasetNameSchema } from '~~/engine/datasets'
import { useJudgeflow } from '~~/server/utils/context'
import { casesOf, checkCasesBody, datasetCasesBody, presentDatasetSummary } from '~~/server/utils/datasets'
import { notFound, readBodyWith, routeId } from '~~/server/utils/http'

const bodySchema = checkCasesBody(z.object({ name: datasetNameSchema.optional(), ...datasetCasesBody }).strict())

/** Renames the dataset, and with new cases (a file's text or values) makes its next version. */
export default defineEventHandler(async (event) => {
  const body = await readBodyWith(event, bodySchema)
  const { store } = useJudgeflow()
  const id = routeId(event)
  const cases = await casesOf(event, body)
  if (body.name) {
    const named = await store.datasets.findByName(body.name)
    if (named && named.id !== id) throw new JudgeflowError('CONFLICT', `A dataset named "${body.name}" already exists: choose another name.`)
  }
  const row = await store.datasets.update(id, { name: body.name, cases })
  if (!row) notFound('dataset', id)
  return { ...presentDatasetSummary(row), version: row.version }
})
