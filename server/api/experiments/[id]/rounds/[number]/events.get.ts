import { useJudgeflow } from '~~/server/utils/context'
import { roundParams } from '~~/server/utils/experiments'
import { notFound, readParamsWith, routeId } from '~~/server/utils/http'
import { openEventStream, streamTurn } from '~~/server/utils/sse'

/**
 * A round's progress as Server-Sent Events (`progress` while it goes on, then `round.finished`),
 * from the one progress source its followers in this process share.
 */
export default defineEventHandler(async (event) => {
  const { number } = await readParamsWith(event, roundParams)
  await streamTurn()
  const { store, rounds } = useJudgeflow()
  // Many followers may connect at once: the check reads one column, not the round's runs and report.
  if (!await store.experiments.roundExists(routeId(event), number)) notFound('round', String(number))
  const stream = openEventStream(event)
  const stop = rounds.follow(routeId(event), number, (message) => {
    if (message) stream.write(message.event, message.data)
    if (!message || message.event === 'round.finished') stream.end()
  })
  stream.onClose(stop)
  await stream.done
})
