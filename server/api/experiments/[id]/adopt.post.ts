import { z } from 'zod'
import { JudgeflowError } from '~~/engine'
import { useJudgeflow } from '~~/server/utils/context'
import { experimentOf } from '~~/server/utils/experiments'
import { readBodyWith, routeId } from '~~/server/utils/http'

/** Makes a variant the current best: the next round compares the others with it (from its recorded judgments). */
export default defineEventHandler(async (event) => {
  const { variant } = await readBodyWith(event, z.object({ variant: z.string().min(1, 'is required') }))
  const { id, experiment } = await experimentOf(routeId(event))
  if (!experiment.variants.some(v => v.id === variant)) throw new JudgeflowError('INVALID_BODY', `variant: "${variant}" is not a variant of this experiment (${experiment.variants.map(v => v.id).join(', ')})`)
  await useJudgeflow().store.experiments.update(id, { ...experiment, current_best: variant })
  return { id, current_best: variant }
})
