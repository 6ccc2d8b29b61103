import { z } from 'zod'
import { JudgeflowError } from '~~/engine'
import { judgmentProblems, judgmentSchema, type Judgment } from '~~/engine/experiments'
import { useJudgeflow } from '~~/server/utils/context'
import { experimentOf, historyOf, reportFor, roundParams } from '~~/server/utils/experiments'
import { badRequest, notFound, readBodyWith, readParamsWith, routeId } from '~~/server/utils/http'

/**
 * A person's corrections: the round's judgments replaced (each with its reason) and its report
 * recomputed. Every judgment of the round is sent, and each must be one of its judged outputs.
 */
export default defineEventHandler(async (event) => {
  const { number } = await readParamsWith(event, roundParams)
  const { judgments } = await readBodyWith(event, z.object({ judgments: z.array(judgmentSchema).min(1) }))
  const { store } = useJudgeflow()
  const { experiment } = await experimentOf(routeId(event))
  const round = await store.experiments.round(routeId(event), number)
  if (!round) notFound('round', String(number))
  if (round.status !== 'finished') throw new JudgeflowError('ROUND_NOT_FINISHED', `round ${round.number} is ${round.status}: judgments can be corrected once it has finished`)
  const judged = [...round.runs, ...(round.judgments as Judgment[])]
  const problems = judgmentProblems(judgments, { number: round.number, judged, currentBest: round.currentBest, documents: experiment.documents })
  if (problems.length) throw badRequest(problems)
  const history = historyOf((await store.experiments.rounds(round.experimentId)).filter(r => r.number < round.number))
  const report = reportFor(experiment, round.currentBest, judgments, history)
  await store.experiments.updateRound(round.id, { judgments, report })
  return { number: round.number, judgments, report }
})
