/**
 * The evaluation types as plain data, in the order the editor offers them. Browser-safe and free of
 * zod: the editor's components read these. The types are the folders of engine/evaluation-types,
 * listed by `npm run generate:evaluation-types` in specs.generated.ts (docs: DEVELOPERS.md, "Adding things").
 */
import { SECTION_AND_INPUT_FIELDS, type ConfigFieldDescriptor, type EvaluationTypeSpec } from './spec'
import { typeSpecs } from './specs.generated'
import { scoringSpec } from './scoring/spec'

/** A type is named after its folder: the type checker holds each spec's `type` to its folder's name. */
const specsByType = typeSpecs satisfies { [T in keyof typeof typeSpecs]: EvaluationTypeSpec<T> }

export type EvaluationType = keyof typeof specsByType

type AnySpec = (typeof specsByType)[EvaluationType]

export const evaluationTypeSpecs: readonly AnySpec[] = Object.values(specsByType).sort((a, b) => a.order - b.order)

export const evaluationTypes = evaluationTypeSpecs.map(spec => spec.type) as [EvaluationType, ...EvaluationType[]]

const byType = new Map<string, EvaluationTypeSpec<EvaluationType>>(evaluationTypeSpecs.map(spec => [spec.type, spec]))

export function evaluationTypeSpec(type: unknown): EvaluationTypeSpec<EvaluationType> | undefined {
  return typeof type === 'string' ? byType.get(type) : undefined
}

/** What the editor shows for a step's type: the type's spec, or scoring's while none (or an unknown one) is set. */
export function formSpecFor(type: unknown): EvaluationTypeSpec<EvaluationType> {
  return evaluationTypeSpec(type) ?? scoringSpec
}

/** The evaluation types a judge panel (`judges`) may judge, in the editor's order: the form offers a panel for these only. */
export const PANEL_TYPES: readonly string[] = evaluationTypeSpecs.filter(spec => (spec as EvaluationTypeSpec).panel).map(spec => spec.type)

/** Each type's own described config fields (`settings` in its spec), by name. */
export const ownConfigFields: ReadonlyMap<string, ConfigFieldDescriptor> = new Map(
  evaluationTypeSpecs.flatMap(spec => Object.entries((spec as EvaluationTypeSpec).settings ?? {})),
)

/** The step's config fields that belong to one type or another (the rest, such as temperature, every type takes). */
export const TYPE_OWNED_FIELDS: ReadonlySet<string> = new Set([...SECTION_AND_INPUT_FIELDS, ...ownConfigFields.keys()])
