import { z } from 'zod'
import { strictObject } from '../../schema/unknown-keys'
import { defineStepSpec } from '../types'
import { conditionOutputs } from './outputs'
import { builtinStepMeta } from '../step-meta'

export const conditionOperators = ['eq', 'neq', 'gt', 'gte', 'lt', 'lte', 'contains', 'matches', 'truthy'] as const
export type ConditionOperator = (typeof conditionOperators)[number]

export const conditionSpec = defineStepSpec({
  type: 'condition',
  label: builtinStepMeta.condition.label,
  description: 'Compares two values and takes the "true" or "false" branch.',
  configSchema: strictObject({
    left: z.unknown(),
    op: z.enum(conditionOperators),
    right: z.unknown().optional(),
    /** For contains and matches. */
    ignore_case: z.boolean().optional(),
  }),
  branches: ['true', 'false'],
  outputs: conditionOutputs,
})
