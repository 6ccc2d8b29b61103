import { isOpenRoundStatus } from '~~/engine/experiments/round-statuses'
import { useJudgeflow } from '~~/server/utils/context'
import { roundParams, saveRound } from '~~/server/utils/experiments'
import { notFound, readParamsWith, routeId } from '~~/server/utils/http'

/** Cancels a round still going: its runs are cancelled (or marked interrupted when no process holds them). */
export default defineEventHandler(async (event) => {
  const { number } = await readParamsWith(event, roundParams)
  const { store, runs } = useJudgeflow()
  const round = await store.experiments.round(routeId(event), number)
  if (!round) notFound('round', String(number))
  if (!isOpenRoundStatus(round.status)) return { number: round.number, status: round.status }
  // A run that has already ended, or that another live process holds, is left as it is.
  await Promise.all(round.runs.map(r => runs.cancelOrInterrupt(r.run_id).catch(() => undefined)))
  await saveRound(round, { status: 'cancelled', finishedAt: Date.now() })
  return { number: round.number, status: 'cancelled' }
})
