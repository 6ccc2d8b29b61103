import { z } from 'zod'
import { retentionNote } from '~~/core'
import { useJudgeflow } from '~~/server/utils/context'
import { notFound, readHeadersWith, readQueryWith, routeId } from '~~/server/utils/http'
import { wholeNumber } from '~~/server/utils/parameters'
import { openEventStream, streamTurn } from '~~/server/utils/sse'

const eventId = wholeNumber({ min: 0, max: Number.MAX_SAFE_INTEGER }).optional()
const headerSchema = z.object({ 'last-event-id': eventId })
const querySchema = z.object({ after: eventId })

/**
 * The run's events as Server-Sent Events: replays what was stored after Last-Event-ID
 * (or ?after=), then follows live; closes after run.finished.
 */
export default defineEventHandler(async (event) => {
  const after = (await readHeadersWith(event, headerSchema))['last-event-id'] ?? (await readQueryWith(event, querySchema)).after ?? 0
  await streamTurn()
  const { store, runs, config } = useJudgeflow()
  const run = await store.runs.get(routeId(event))
  if (!run) notFound('run', routeId(event), retentionNote(config.retention))
  // A finished run with nothing after Last-Event-ID: 204 tells EventSource to stop reconnecting.
  if (runs.hasEnded(run) && !(await store.runs.eventsAfter(run.id, after, 1)).length) {
    setResponseStatus(event, 204)
    return null
  }
  const stream = openEventStream(event)
  await runs.streamEvents(run.id, after, stream)
  await stream.done
})
