import { z } from 'zod'
import { scorerConfigSchema, scorerPresets } from '../../schema/scorers'

export const scorersFields = {
  /** The list, or one of the ready-made presets by name. */
  scorers: z.array(scorerConfigSchema).max(50).optional(),
  preset: z.enum(scorerPresets, { error: `must be one of ${scorerPresets.join(', ')}` }).optional(),
}
