import { fieldsOfSpec } from '../../engine/evaluation-types/spec'
import { formSpecFor, TYPE_OWNED_FIELDS } from '../../engine/evaluation-types/specs'

/**
 * The settings of an evaluator step that switching it to type `to` would remove: those set on it
 * that belong to one type or another and that `to` does not use. What every type takes (a
 * temperature) and what both types use (criteria, context, a threshold, the model…) stay.
 */
export function droppedBySwitch(config: Record<string, unknown>, to: string): string[] {
  const uses = fieldsOfSpec(formSpecFor(to))
  return Object.keys(config).filter(key => config[key] !== undefined && TYPE_OWNED_FIELDS.has(key) && !uses.has(key))
}

/** An evaluator step's config switched to another evaluation type, without the settings that type does not use. */
export function switchEvaluationType(config: Record<string, unknown>, to: string): Record<string, unknown> {
  const next: Record<string, unknown> = { ...config, evaluation_type: to }
  for (const key of droppedBySwitch(config, to)) delete next[key]
  return next
}
