import { getRound, updateRound } from '../../../../../../db'
import { useJudgeflow } from '../../../../../utils/context'
import { notFound, routeId } from '../../../../../utils/http'

export default defineEventHandler((event) => {
  const { handle, runs } = useJudgeflow()
  const round = getRound(handle.db, routeId(event), Number(getRouterParam(event, 'number')))
  if (!round) notFound('round', String(getRouterParam(event, 'number')))
  if (round.status === 'running' || round.status === 'judging') {
    for (const r of round.runs) runs.cancel(r.run_id)
    updateRound(handle.db, round.id, { status: 'cancelled', finishedAt: Date.now() })
  }
  return { number: round.number, status: round.status === 'running' || round.status === 'judging' ? 'cancelled' : round.status }
})
