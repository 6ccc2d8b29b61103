import { useJudgeflow } from '~~/server/utils/context'
import { experimentOf } from '~~/server/utils/experiments'
import { routeId } from '~~/server/utils/http'

/** The experiment with every round (runs, judgments, report). */
export default defineEventHandler(async (event) => {
  const { id, experiment } = await experimentOf(routeId(event))
  const rounds = (await useJudgeflow().store.experiments.rounds(id)).map(r => ({
    number: r.number, status: r.status, current_best: r.currentBest, runs: r.runs, judgments: r.judgments,
    report: r.report, error: r.error, created_at: r.createdAt, finished_at: r.finishedAt,
  }))
  return { id, ...experiment, rounds }
})
