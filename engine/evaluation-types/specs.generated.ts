// Written by `npm run generate:evaluation-types` (scripts/evaluation-types.ts) from the type folders: do not edit.
import { assertionsSpec } from './assertions/spec'
import { comparisonSpec } from './comparison/spec'
import { criteriaSpec } from './criteria/spec'
import { metricsSpec } from './metrics/spec'
import { rubricSpec } from './rubric/spec'
import { scorersSpec } from './scorers/spec'
import { scoringSpec } from './scoring/spec'
import { traceSpec } from './trace/spec'

/** Each type's spec: plain data, no zod (the editor's page loads these). By folder. */
export const typeSpecs = {
  assertions: assertionsSpec,
  comparison: comparisonSpec,
  criteria: criteriaSpec,
  metrics: metricsSpec,
  rubric: rubricSpec,
  scorers: scorersSpec,
  scoring: scoringSpec,
  trace: traceSpec,
}
