/** The evaluation types, without the schemas: the editor lists them without loading zod. */
import { evaluationTypeSpecs, type EvaluationType } from '../evaluation-types/specs'

export { evaluationTypes, evaluationTypeSpecs, evaluationTypeSpec, formSpecFor, type EvaluationType } from '../evaluation-types/specs'
export type { EvaluationTypeSpec, EvaluationInputField, FormSection } from '../evaluation-types/spec'
export { MAX_PANEL_JUDGES } from '../evaluation-types/spec'
export { PANEL_TYPES } from '../evaluation-types/specs'
export { METRIC_DEFAULT_MODEL } from '../evaluation-types/metrics/spec'

/** The types that judge one text, the step's `content`. */
export const contentTypes: readonly EvaluationType[] = evaluationTypeSpecs.filter(spec => spec.judgesContent).map(spec => spec.type)

/** Types that need no LLM judge. */
export const deterministicTypes: readonly EvaluationType[] = evaluationTypeSpecs.filter(spec => !spec.usesJudge).map(spec => spec.type)
