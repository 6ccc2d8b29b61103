import { getRun, listStepRuns } from '../../../db'
import { useJudgeflow } from '../../utils/context'
import { notFound, routeId } from '../../utils/http'
import { presentRun } from '../../utils/present'

/** A run with every step's input, output, error, attempts, timings and usage. */
export default defineEventHandler((event) => {
  const { db } = useJudgeflow().handle
  const run = getRun(db, routeId(event))
  if (!run) notFound('run', routeId(event))
  return presentRun(run, listStepRuns(db, run.id))
})
