// Written by `npm run generate:evaluation-types` (scripts/evaluation-types.ts) from the type folders: do not edit.
import { assertionsFields, assertionsChecks } from './assertions/schema'
import { comparisonFields, comparisonChecks } from './comparison/schema'
import { criteriaFields, criteriaChecks } from './criteria/schema'
import { metricsFields, metricsChecks } from './metrics/schema'
import { rubricFields, rubricChecks } from './rubric/schema'
import { scorersFields, scorersChecks } from './scorers/schema'
import { scoringFields, scoringChecks } from './scoring/schema'
import { traceFields, traceChecks } from './trace/schema'

/** Each type's config fields and checks (zod: the validation worker and the server). By folder. */
export const typeFields = {
  assertions: assertionsFields,
  comparison: comparisonFields,
  criteria: criteriaFields,
  metrics: metricsFields,
  rubric: rubricFields,
  scorers: scorersFields,
  scoring: scoringFields,
  trace: traceFields,
}
export const typeChecks = {
  assertions: assertionsChecks,
  comparison: comparisonChecks,
  criteria: criteriaChecks,
  metrics: metricsChecks,
  rubric: rubricChecks,
  scorers: scorersChecks,
  scoring: scoringChecks,
  trace: traceChecks,
}
