import { retentionNote } from '~~/core'
import { useJudgeflow } from '~~/server/utils/context'
import { notFound, routeId } from '~~/server/utils/http'
import { openEventStream, streamTurn } from '~~/server/utils/sse'

/**
 * The run's events as Server-Sent Events: replays what was stored after Last-Event-ID
 * (or ?after=), then follows live; closes after run.finished.
 */
export default defineEventHandler(async (event) => {
  await streamTurn()
  const { store, runs, config } = useJudgeflow()
  const run = await store.runs.get(routeId(event))
  if (!run) notFound('run', routeId(event), retentionNote(config.retention))
  const after = Number(getHeader(event, 'last-event-id') ?? getQuery(event).after ?? 0) || 0
  // A finished run with nothing after Last-Event-ID: 204 tells EventSource to stop reconnecting.
  if (runs.hasEnded(run) && !(await store.runs.eventsAfter(run.id, after, 1)).length) {
    setResponseStatus(event, 204)
    return null
  }
  const stream = openEventStream(event)
  await runs.streamEvents(run.id, after, stream)
  await stream.done
})
