import { startRound } from '~~/server/utils/experiments'
import { routeId } from '~~/server/utils/http'

/** Starts a round: its runs go on in the background; follow it at .../rounds/<number>/events. */
export default defineEventHandler(async (event) => {
  const round = await startRound(routeId(event))
  setResponseStatus(event, 202)
  return { number: round.number, status: round.status, runs: round.runs }
})
