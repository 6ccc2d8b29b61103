import { STOP_WAIT_MS } from '~~/core'
import { JudgeflowError } from '~~/engine'
import { useJudgeflow } from '~~/server/utils/context'
import { notFound, routeId } from '~~/server/utils/http'

/**
 * Deletes the workflow with its versions and runs. Its queued and running runs are cancelled
 * first (their event streams end with `run.finished`); a run that does not stop in time is a 409.
 */
export default defineEventHandler(async (event) => {
  const { store, runs } = useJudgeflow()
  const id = routeId(event)
  if (!await store.workflows.get(id)) notFound('workflow', id)
  const outcome = await runs.deleteWorkflowWith(id, () => store.workflows.delete(id))
  if ('stillRunning' in outcome) {
    const named = outcome.stillRunning.map(r => `"${r}"`).join(', ')
    throw new JudgeflowError('STILL_RUNNING', `${outcome.stillRunning.length > 1 ? 'Runs' : 'Run'} ${named} of this workflow did not stop within ${STOP_WAIT_MS / 1000} s of being cancelled; try the deletion again.`)
  }
  if (!outcome.removed) notFound('workflow', id)
  setResponseStatus(event, 204)
  return null
})
