import type { EvaluatorConfigOf } from '../config-schema'
import { defineEvaluationType } from '../types'
import { candidatesOf, evaluateComparison } from './evaluate'
import { comparisonChecks, comparisonFields } from './schema'
import { comparisonSpec } from './spec'

export const comparisonType = defineEvaluationType<EvaluatorConfigOf<'comparison'>>({
  ...comparisonSpec,
  fields: comparisonFields,
  ...comparisonChecks,
  evaluate: ctx => evaluateComparison(ctx, candidatesOf(ctx, ctx.candidateIds)),
})
