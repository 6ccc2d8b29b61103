import type { EvaluatorConfigOf } from '../config-schema'
import { OVERALL_CRITERION } from '../criteria'
import { defineEvaluationType } from '../types'
import { candidatesOf, evaluateComparison } from './evaluate'
import { comparisonFields } from './schema'
import { comparisonSpec } from './spec'

export const comparisonType = defineEvaluationType<EvaluatorConfigOf<'comparison'>>({
  ...comparisonSpec,
  fields: comparisonFields,
  resolve: config => ({ criteria: config.criteria?.length ? config.criteria : [{ ...OVERALL_CRITERION }] }),
  evaluate: ctx => evaluateComparison(ctx, candidatesOf(ctx, ctx.candidateIds)),
})
