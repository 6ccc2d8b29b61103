import { z } from 'zod'
import { JudgeflowError } from '~~/engine'
import { datasetNameSchema } from '~~/engine/datasets'
import { judgeflowConfig } from '~~/server/utils/config'
import { useJudgeflow } from '~~/server/utils/context'
import { presentDatasetSummary } from '~~/server/utils/datasets'
import { readBodyWith } from '~~/server/utils/http'
import { readImportAside } from '~~/server/utils/imports'

const bodySchema = z.object({
  name: datasetNameSchema.optional(),
  /** The promptfoo config's text, YAML or JSON; tests in files (file://…) are refused: inline them. */
  config: z.string().min(1, 'is empty'),
  /** The grader of llm-rubric assertions when the config names none (`defaultTest.options.provider`). */
  judge: z.string().min(1).optional(),
  /** Imports assertions judgeflow cannot run as markers that error their cases, instead of refusing the config. */
  skip_unsupported: z.boolean().optional(),
}).strict()

/** Imports a promptfoo config: creates the dataset of its tests; answers the evaluator, the workflow and the notes on settings not imported. */
export default defineEventHandler(async (event) => {
  const body = await readBodyWith(event, bodySchema)
  const { store } = useJudgeflow()
  const imported = await readImportAside(event, { kind: 'promptfoo', text: body.config, options: { name: body.name, judge: body.judge, maxDepth: judgeflowConfig().maxJsonDepth, skipUnsupported: body.skip_unsupported } })
  if (await store.datasets.findByName(imported.name)) throw new JudgeflowError('CONFLICT', `A dataset named "${imported.name}" already exists: give another name.`)
  const row = await store.datasets.create(imported.name, imported.cases)
  setResponseStatus(event, 201)
  const { evaluator, evaluators, workflow, notes } = imported
  return { dataset: { ...presentDatasetSummary(row), version: row.version }, evaluator, evaluators, ...(workflow ? { workflow } : {}), notes }
})
