import { z } from 'zod'
import { defineStepSpec } from '../types'
import { objectOf, output } from '../outputs'

export const outputSpec = defineStepSpec({
  type: 'output',
  label: 'Output',
  description: 'Ends a branch with the run\'s value and, optionally, a pass or fail verdict.',
  configSchema: z.object({
    verdict: z.enum(['pass', 'fail']).optional(),
    value: z.unknown().optional(),
  }),
  textField: 'value',
  outputs: () => objectOf({
    verdict: output(['string', 'null'], 'pass, fail, or null when none is set'),
    value: output('any', 'the run\'s value (null when none is set)'),
  }, 'the branch\'s end'),
})
