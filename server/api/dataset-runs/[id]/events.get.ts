import { useJudgeflow } from '~~/server/utils/context'
import { notFound, routeId } from '~~/server/utils/http'
import { openEventStream, streamTurn } from '~~/server/utils/sse'

/** A dataset run's progress as Server-Sent Events: `progress` at each finished case, then `finished` with its status. */
export default defineEventHandler(async (event) => {
  await streamTurn()
  const { store, datasets } = useJudgeflow()
  const row = await store.datasets.getRun(routeId(event))
  if (!row) notFound('dataset run', routeId(event))
  const stream = openEventStream(event)
  const send = (progress: { id: string, status: string }) => {
    if (progress.status === 'running') return stream.write('progress', JSON.stringify(progress))
    stream.write('finished', JSON.stringify(progress))
    stream.end()
  }
  const stop = datasets.subscribe(row.id, send)
  stream.onClose(stop)
  const now = datasets.progress(row.id)
  if (now) stream.write('progress', JSON.stringify(now))
  else send({ id: row.id, status: (await store.datasets.getRun(row.id))?.status ?? row.status })
  await stream.done
})
