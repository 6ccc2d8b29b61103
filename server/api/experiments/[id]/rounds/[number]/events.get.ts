import { getRound, getRun } from '../../../../../../db'
import { finalRunStatuses } from '../../../../../../engine'
import { useJudgeflow } from '../../../../../utils/context'
import { notFound, routeId } from '../../../../../utils/http'

const FINAL_ROUND = new Set(['finished', 'failed', 'cancelled'])

/** A round's progress as Server-Sent Events (`progress` while it goes on, then `round.finished`). */
export default defineEventHandler(async (event) => {
  const { handle } = useJudgeflow()
  const number = Number(getRouterParam(event, 'number'))
  if (!getRound(handle.db, routeId(event), number)) notFound('round', String(number))
  const stream = createEventStream(event)
  let open = true
  stream.onClosed(() => { open = false })
  void (async () => {
    let last = ''
    while (open) {
      const round = getRound(handle.db, routeId(event), number)!
      const runs = round.runs.map(r => ({ ...r, status: getRun(handle.db, r.run_id)?.status ?? 'unknown' }))
      const progress = { number, status: round.status, total: runs.length, done: runs.filter(r => finalRunStatuses.has(r.status)).length, judged: (round.judgments as unknown[]).length, runs }
      const text = JSON.stringify(progress)
      if (text !== last) await stream.push({ event: FINAL_ROUND.has(round.status) ? 'round.finished' : 'progress', data: text })
      last = text
      if (FINAL_ROUND.has(round.status)) break
      await new Promise(resolve => setTimeout(resolve, 250))
    }
    await stream.close()
  })()
  return stream.send()
})
