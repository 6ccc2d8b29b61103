import { useJudgeflow } from '~~/server/utils/context'
import { notFound, routeId } from '~~/server/utils/http'

/**
 * Cancels a queued or running run (running steps get the abort signal; 202). A run the database
 * shows unfinished but that no live process holds any more — its process crashed, or hangs — is
 * marked interrupted with the reason (200). Anything else is a 409 saying why.
 */
export default defineEventHandler(async (event) => {
  const { store, runs } = useJudgeflow()
  const run = await store.runs.get(routeId(event))
  if (!run) notFound('run', routeId(event))
  if (await runs.cancelOrInterrupt(run.id) === 'interrupted') return { id: run.id, status: 'interrupted' }
  setResponseStatus(event, 202)
  return { id: run.id, cancelling: true }
})
