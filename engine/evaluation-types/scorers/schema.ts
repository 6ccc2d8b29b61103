import { z } from 'zod'
import { scorerConfigSchema, scorerPresets } from '../../schema/scorers'
import type { EvaluatorConfigOf } from '../config-schema'
import type { EvaluationTypeChecks } from '../types'

export const scorersFields = {
  /** The list, or one of the ready-made presets by name. */
  scorers: z.array(scorerConfigSchema).max(50).optional(),
  preset: z.enum(scorerPresets, { error: `must be one of ${scorerPresets.join(', ')}` }).optional(),
}

export const scorersChecks: EvaluationTypeChecks<EvaluatorConfigOf<'scorers'>> = {
  exclusive: [['scorers', 'preset']],
  resolve(config, problems) {
    if (!config.scorers?.length && !config.preset) problems.push({ path: 'scorers', message: 'give a list of scorers or a preset (standard, strict, operation-focused)' })
    if (config.scorers?.length && config.preset) problems.push({ path: 'preset', message: 'give either scorers or a preset, not both' })
  },
}
