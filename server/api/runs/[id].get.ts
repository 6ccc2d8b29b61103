import { retentionNote } from '../../../core'
import { useJudgeflow } from '../../utils/context'
import { notFound, routeId } from '../../utils/http'
import { presentRun } from '../../utils/present'

/** A run with every step's input, output, error, attempts, timings and usage. */
export default defineEventHandler(async (event) => {
  const { store, config } = useJudgeflow()
  const run = await store.runs.get(routeId(event))
  if (!run) notFound('run', routeId(event), retentionNote(config.retention))
  return presentRun(run, await store.runs.steps(run.id))
})
