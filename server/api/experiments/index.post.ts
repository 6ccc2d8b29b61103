import { experimentSchema } from '../../../engine/experiments'
import { useJudgeflow } from '../../utils/context'
import { readBodyWith } from '../../utils/http'

/** Creates (or imports) an experiment: documents with answer keys, the step under test, variants. */
export default defineEventHandler(async (event) => {
  const definition = await readBodyWith(event, experimentSchema)
  const row = await useJudgeflow().store.experiments.create(definition)
  setResponseStatus(event, 201)
  return { id: row.id, ...definition }
})
