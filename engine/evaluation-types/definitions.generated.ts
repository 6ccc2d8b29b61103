// Written by `npm run generate:evaluation-types` (scripts/evaluation-types.ts) from the type folders: do not edit.
import { assertionsType } from './assertions'
import { comparisonType } from './comparison'
import { criteriaType } from './criteria'
import { metricsType } from './metrics'
import { rubricType } from './rubric'
import { scorersType } from './scorers'
import { scoringType } from './scoring'
import { traceType } from './trace'

/** Each type's definition, with `evaluate` (the server and the CLI). By folder. */
export const typeDefinitions = {
  assertions: assertionsType,
  comparison: comparisonType,
  criteria: criteriaType,
  metrics: metricsType,
  rubric: rubricType,
  scorers: scorersType,
  scoring: scoringType,
  trace: traceType,
}
