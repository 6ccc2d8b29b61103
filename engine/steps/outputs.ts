/**
 * What a step puts in its output, declared with its type (`StepSpec.outputs`): the reference
 * checker, the `{{` completion and the README's tables read it. Browser-safe and free of zod.
 */

export type ValueType = 'string' | 'number' | 'boolean' | 'object' | 'array' | 'null' | 'any'

export interface OutputField {
  /** One type, or the types it may have (e.g. `['string', 'null']`). */
  type: ValueType | readonly ValueType[]
  description: string
  /** When it is present only sometimes: the condition, in words ("when samples > 1"). */
  optional?: string
  /** An object's fields; an object without them (or `open`) may hold any key. */
  fields?: Readonly<Record<string, OutputField>>
  /** Its keys are known only at run time (a config in a file, a reference in a criterion's name). */
  open?: boolean
  /** An array's items. */
  items?: OutputField
}

export type OutputFields = Readonly<Record<string, OutputField>>

export function output(type: OutputField['type'], description: string, more: Partial<OutputField> = {}): OutputField {
  return { type, description, ...more }
}

/** An object output with these fields (`open` when more keys may come). */
export function objectOf(fields: OutputFields, description: string, more: Partial<OutputField> = {}): OutputField {
  return { type: 'object', description, fields, ...more }
}

/** An object keyed by names from the config: numbers, for example, by criterion. */
export function keyedBy(names: readonly string[] | undefined, value: OutputField, description: string): OutputField {
  if (!names) return { type: 'object', description, open: true }
  return { type: 'object', description, fields: Object.fromEntries(names.map(name => [name, value])) }
}

export const typesOf = (field: OutputField): readonly ValueType[] => (typeof field.type === 'string' ? [field.type] : field.type)

/** A string that holds a reference (`{{…}}`): its value is not known before the run. */
export const holdsReference = (value: unknown) => typeof value === 'string' && value.includes('{{')

/**
 * The names in a config list (criteria, metrics), or undefined when they are not all known before
 * the run (a name is a reference, the list is one).
 */
export function namesIn(list: unknown, key = 'name'): string[] | undefined {
  if (list === undefined) return []
  if (!Array.isArray(list)) return undefined
  const names: string[] = []
  for (const item of list) {
    const name = typeof item === 'string' ? item : (item as Record<string, unknown> | null)?.[key]
    if (typeof name !== 'string' || holdsReference(name)) return undefined
    names.push(name)
  }
  return names
}

/** The output of a pinned step: its items, a string standing for `{ text }` (see executor/pinned.ts). */
export function pinnedOutputs(pinned: readonly unknown[]): OutputField {
  const fields: Record<string, OutputField> = {}
  for (const item of pinned) {
    const value = typeof item === 'string' ? { text: item } : item as Record<string, unknown>
    for (const [key, v] of Object.entries(value)) fields[key] = describeValue(v, 'pinned')
  }
  return objectOf(fields, 'the pinned output')
}

/** A field that describes a value as it is (pinned outputs): its type, and an object's keys. */
function describeValue(value: unknown, description: string): OutputField {
  if (value === null) return output('null', description)
  if (Array.isArray(value)) return output('array', description)
  if (typeof value === 'object') return output('any', description)
  return output(typeof value as ValueType, description)
}
