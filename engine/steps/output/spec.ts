import { z } from 'zod'
import { strictObject } from '../../schema/unknown-keys'
import { defineStepSpec } from '../types'
import { outputOutputs } from './outputs'
import { builtinStepMeta } from '../step-meta'

export const outputSpec = defineStepSpec({
  type: 'output',
  label: builtinStepMeta.output.label,
  description: 'Ends a branch with the run\'s value and, optionally, a pass or fail verdict.',
  configSchema: strictObject({
    verdict: z.enum(['pass', 'fail']).optional(),
    value: z.unknown().optional(),
  }),
  textField: 'value',
  outputs: outputOutputs,
})
