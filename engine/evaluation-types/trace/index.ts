import type { EvaluatorConfigOf } from '../config-schema'
import { defineEvaluationType } from '../types'
import { evaluateTrace } from './evaluate'
import { traceChecks, traceFields } from './schema'
import { traceSpec } from './spec'

export const traceType = defineEvaluationType<EvaluatorConfigOf<'trace'>>({
  ...traceSpec,
  fields: traceFields,
  ...traceChecks,
  evaluate: ctx => evaluateTrace(ctx),
})
