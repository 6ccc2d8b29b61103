import { z } from 'zod'
import { findReferences } from '../../executor/references'
import { strictObject } from '../../schema/unknown-keys'
import { patternProblem } from '../../text/safe-regex'
import { defineStepSpec } from '../types'
import { conditionOutputs } from './outputs'
import { builtinStepMeta } from '../step-meta'

export const conditionOperators = ['eq', 'neq', 'gt', 'gte', 'lt', 'lte', 'contains', 'matches', 'truthy'] as const
export type ConditionOperator = (typeof conditionOperators)[number]

/**
 * What a `matches` condition's run refuses, found before it runs: a pattern that is not a text, or
 * one RE2 does not compile (invalid, or too large), compiled with the flags the run gives it
 * (`compare`). A pattern holding a {{reference}} is known only once the run renders it.
 */
function conditionRunProblems(config: Record<string, unknown>): Array<{ path: string, message: string }> {
  if (config.op !== 'matches') return []
  const { right } = config
  if (typeof right !== 'string') return [{ path: 'right', message: 'must be a pattern (a text) for "matches"' }]
  if (findReferences(right).length) return []
  const problem = patternProblem(right, { ignoreCase: config.ignore_case === true })
  return problem ? [{ path: 'right', message: problem }] : []
}

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
  runProblems: conditionRunProblems,
})
