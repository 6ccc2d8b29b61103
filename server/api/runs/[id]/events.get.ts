import { retentionNote, type RunEventRow } from '~~/core'
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
  let lastSent = after
  let replaying = true
  const live: RunEventRow[] = []
  const send = (row: RunEventRow) => {
    if (row.id <= lastSent) return
    lastSent = row.id
    stream.send(row)
    if (row.type === 'run.finished') stream.end()
  }
  // Subscribe before reading the log so nothing committed in between is missed; duplicates are dropped by id.
  const unsubscribe = runs.subscribe(run.id, row => (replaying ? live.push(row) : send(row)))
  stream.onClose(unsubscribe)
  for (let page = await store.runs.eventsAfter(run.id, after, 100); page.length; page = await store.runs.eventsAfter(run.id, lastSent, 100)) {
    for (const row of page) {
      send(row)
      await stream.drained()
    }
    if (stream.closed) break
  }
  replaying = false
  for (const row of live) send(row)
  const current = await store.runs.get(run.id)
  if (current && runs.hasEnded(current)) stream.end()
  await stream.done
})
