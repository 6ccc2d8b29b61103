import { z } from 'zod'
import { evaluate, parseMetricSuiteToml } from '~~/engine'
import { useJudgeflow } from '~~/server/utils/context'
import { readBodyWith } from '~~/server/utils/http'

const bodySchema = z.object({
  /** An evaluator config (JSON), or `config_toml`: the metric suite's TOML text. */
  config: z.record(z.string(), z.unknown()).optional(),
  config_toml: z.string().max(200_000).optional(),
  input: z.record(z.string(), z.unknown()).default({}),
}).refine(body => (body.config === undefined) !== (body.config_toml === undefined), { message: 'give either config or config_toml', path: ['config'] })

/**
 * Evaluates synchronously with the same engine code as the evaluator step and `judgeflow eval`;
 * 429 when JUDGEFLOW_MAX_QUEUED_EVALUATIONS evaluations already wait for a worker thread.
 */
export default defineEventHandler(async (event) => {
  const body = await readBodyWith(event, bodySchema)
  const app = useJudgeflow()
  const config = body.config ?? parseMetricSuiteToml(body.config_toml!, 'config_toml')
  return await evaluate(config, body.input, { ...app.directEvaluation(), providers: app.providers })
})
