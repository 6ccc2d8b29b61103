import { fieldsOfSpec, TYPE_OWNED_FIELDS } from '../../engine/evaluation-types/spec'
import { formSpecFor } from '../../engine/evaluation-types/specs'

/** Settings of other evaluation types, kept by field while the step has a type that does not use them. */
export type SetAside = Record<string, unknown>

/**
 * An evaluator step's config switched to another evaluation type: the fields the new type does not
 * use are set aside (not saved with the step), and those it uses that were set aside by an earlier
 * switch come back. Switching criteria → metrics → criteria gives the criteria back as they were.
 */
export function switchEvaluationType(config: Record<string, unknown>, to: string, aside: SetAside): { config: Record<string, unknown>, aside: SetAside } {
  const uses = fieldsOfSpec(formSpecFor(to))
  const next: Record<string, unknown> = { ...config, evaluation_type: to }
  const kept: SetAside = { ...aside }
  for (const [key, value] of Object.entries(config)) {
    if (value === undefined || !TYPE_OWNED_FIELDS.has(key) || uses.has(key)) continue
    kept[key] = value
    delete next[key]
  }
  for (const [key, value] of Object.entries(aside)) {
    if (!uses.has(key)) continue
    if (next[key] === undefined) next[key] = value
    delete kept[key]
  }
  return { config: next, aside: kept }
}
