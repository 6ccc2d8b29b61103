import { z } from 'zod'
import { runOptionsSchema } from '~~/engine'
import { useJudgeflow } from '~~/server/utils/context'
import { notFound, readBodyWith, routeId } from '~~/server/utils/http'

const bodySchema = z.object({
  input: z.record(z.string(), z.unknown()).default({}),
  options: runOptionsSchema.default({}),
})

/** Starts a run of the current version and answers at once; the run goes on in the background. */
export default defineEventHandler(async (event) => {
  const { runs } = useJudgeflow()
  // A full waiting list refuses (429, Retry-After) before the body is read or the workflow looked up.
  runs.refuseWhenFull()
  const { input, options } = await readBodyWith(event, bodySchema)
  const started = await runs.startCurrent(routeId(event), { input, options })
  if (!started) notFound('workflow', routeId(event))
  const { run, workflow } = started
  setResponseStatus(event, 202)
  return { id: run.id, status: run.status, workflow_id: workflow.id, workflow_version: workflow.version }
})
