import { z } from 'zod'
import { validateWorkflow } from '~~/engine'
import { useJudgeflow } from '~~/server/utils/context'
import { readBodyWith } from '~~/server/utils/http'

/** Validates a definition without saving it: every problem, with node ids and field paths. */
export default defineEventHandler(async (event) => {
  const body = await readBodyWith(event, z.record(z.string(), z.unknown()))
  const { ok, problems } = validateWorkflow(body, useJudgeflow().registry)
  return { ok, problems }
})
