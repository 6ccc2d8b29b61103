import type { ExperimentRoundRow, RoundPatch } from '~~/core'
import type { Experiment, Judgment, RoundSummary } from '~~/engine/experiments'
import { roundReport } from '~~/engine/experiments/round'
import { z } from 'zod'
import { JudgeflowError } from '~~/engine/errors'
import { useJudgeflow } from './context'
import { wholeNumber } from './parameters'

export { historyOf } from '~~/core'

/** The path of a round's routes: `/api/experiments/:id/rounds/:number/…`. */
export const roundParams = z.object({ number: wholeNumber() })

/** Updates a round and tells its followers. */
export function saveRound(round: Pick<ExperimentRoundRow, 'id' | 'experimentId' | 'number'>, patch: RoundPatch): Promise<void> {
  return useJudgeflow().rounds.save(round, patch)
}

/** The experiment's definition, validated; a stored one that no longer parses is a clear error. */
export async function experimentOf(id: string): Promise<{ id: string, experiment: Experiment }> {
  const found = await useJudgeflow().rounds.experiment(id)
  if (!found) throw new JudgeflowError('NOT_FOUND', `experiment "${id}" does not exist`)
  return found
}

/** Starts a round of the experiment (404 when there is none): its runs go on in the background. */
export async function startRound(experimentId: string): Promise<ExperimentRoundRow> {
  await experimentOf(experimentId)
  return useJudgeflow().rounds.start(experimentId)
}

export function reportFor(experiment: Experiment, currentBest: string, judgments: Judgment[], history: RoundSummary[]) {
  return roundReport(experiment, currentBest, judgments, history)
}
