import { z } from 'zod'
import { strictObject } from '../../schema/unknown-keys'
import { defineStepSpec, type StepConfig } from '../types'
import { inputOutputs } from './outputs'
import { builtinStepMeta } from '../step-meta'

export const inputFieldSchema = strictObject({
  type: z.enum(['string', 'number', 'boolean', 'object', 'array', 'any']).default('any'),
  required: z.boolean().default(false),
  default: z.unknown().optional(),
  description: z.string().optional(),
})

export const inputSpec = defineStepSpec({
  type: 'input',
  label: builtinStepMeta.input.label,
  description: 'Starts the flow with the run input; optional fields declare and check its variables.',
  configSchema: strictObject({
    /** The run input's fields, by name. */
    fields: z.record(z.string().regex(/^[a-zA-Z_][a-zA-Z0-9_]*$/, 'must be an identifier'), inputFieldSchema).optional(),
  }),
  outputs: inputOutputs,
})
export type InputConfig = StepConfig<typeof inputSpec>
