import { z } from 'zod'
import { anyCalibrationOf, stepJudgeFingerprint } from '~~/core/calibration'
import { FINGERPRINT_PARTS, type FingerprintPart } from '~~/engine/evaluator/fingerprint'
import { useJudgeflow } from '~~/server/utils/context'
import { readBodyWith } from '~~/server/utils/http'

const hash = z.string().regex(/^[0-9a-f]{8,64}$/)
const bodySchema = z.object({
  /** An evaluator step's config (the editor's step), whose judge's fingerprint is taken… */
  config: z.record(z.string(), z.unknown()).optional(),
  /** …or a fingerprint and its parts, as an evaluator result gives them (the run inspector). */
  fingerprint: hash.optional(),
  parts: z.object(Object.fromEntries(FINGERPRINT_PARTS.map(p => [p, hash])) as Record<FingerprintPart, typeof hash>).strict().optional(),
}).strict().refine(b => (b.config === undefined) !== (b.fingerprint === undefined), { message: 'give either config or fingerprint (with parts)', path: ['config'] })
  .refine(b => b.fingerprint === undefined || b.parts !== undefined, { message: 'is required with fingerprint', path: ['parts'] })

/** Whether an evaluator's judge is calibrated on a dataset with labels, stale, or not calibrated (core/calibration.ts). */
export default defineEventHandler(async (event) => {
  const body = await readBodyWith(event, bodySchema)
  const app = useJudgeflow()
  const fingerprint = body.config
    ? await stepJudgeFingerprint(body.config, {
        defaultJudge: app.providers.defaultJudgeModel(), configDir: app.config.evaluation.configDir, metrics: app.metrics,
      })
    : { fingerprint: body.fingerprint!, parts: body.parts! }
  return anyCalibrationOf(app.store, fingerprint)
})
