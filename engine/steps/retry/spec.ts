import { z } from 'zod'
import { nodeIdSchema } from '../../schema/workflow'
import { strictObject } from '../../schema/unknown-keys'
import { longText } from '../../schema/common'
import { defineStepSpec } from '../types'
import { retryOutputs } from './outputs'
import { builtinStepMeta } from '../step-meta'

export const MAX_RETRY_ATTEMPTS = 20

export const retrySpec = defineStepSpec({
  type: 'retry',
  label: builtinStepMeta.retry.label,
  description: 'Runs its target and everything after it again, up to max_attempts runs; then takes "exhausted".',
  configSchema: strictObject({
    /** The node to run again, with everything downstream of it. */
    target: nodeIdSchema,
    /** Runs of the target in total, the first included. */
    max_attempts: z.number().int().min(1).max(MAX_RETRY_ATTEMPTS),
    /** Why the flow retries, shown in the retrying event; may hold references. */
    reason: longText(z.string()).optional(),
  }),
  branches: ['exhausted'],
  nodeRefFields: ['target'],
  loopTargetField: 'target',
  pinnable: false,
  outputs: retryOutputs,
})
