/**
 * The evaluation types as plain data, in the order the editor offers them. Browser-safe and free of
 * zod: the editor's components read these. Adding a type: its folder, then one line here, one in
 * `config-schema.ts` and one in `registry.ts` (docs: DEVELOPERS.md, "Adding things").
 */
import type { EvaluationTypeSpec } from './spec'
import { scoringSpec } from './scoring/spec'
import { criteriaSpec } from './criteria/spec'
import { comparisonSpec } from './comparison/spec'
import { rubricSpec } from './rubric/spec'
import { metricsSpec } from './metrics/spec'
import { scorersSpec } from './scorers/spec'
import { traceSpec } from './trace/spec'

export const evaluationTypeSpecs = [scoringSpec, criteriaSpec, comparisonSpec, rubricSpec, metricsSpec, scorersSpec, traceSpec] as const

export type EvaluationType = (typeof evaluationTypeSpecs)[number]['type']

export const evaluationTypes = evaluationTypeSpecs.map(spec => spec.type) as [EvaluationType, ...EvaluationType[]]

const byType = new Map<string, EvaluationTypeSpec<EvaluationType>>(evaluationTypeSpecs.map(spec => [spec.type, spec]))

export function evaluationTypeSpec(type: unknown): EvaluationTypeSpec<EvaluationType> | undefined {
  return typeof type === 'string' ? byType.get(type) : undefined
}

/** What the editor shows for a step's type: the type's spec, or scoring's while none (or an unknown one) is set. */
export function formSpecFor(type: unknown): EvaluationTypeSpec<EvaluationType> {
  return evaluationTypeSpec(type) ?? scoringSpec
}
