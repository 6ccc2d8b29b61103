import { objectOf, output, type OutputField, type ValueType } from '../outputs'

const VALUE_TYPES: ReadonlySet<string> = new Set(['string', 'number', 'boolean', 'object', 'array', 'any'])

/**
 * The run input, its defaults filled in: the declared fields, by name and type. Without declared
 * fields any key may come; with them, a key the step does not declare is not one a reference may read.
 */
export function inputOutputs(config: Record<string, unknown>): OutputField {
  const fields = config.fields
  if (!fields || typeof fields !== 'object' || Array.isArray(fields) || !Object.keys(fields).length) {
    return output('object', 'the run input', { open: true })
  }
  type Declared = { type?: unknown, description?: unknown, required?: unknown, default?: unknown } | undefined
  return objectOf(Object.fromEntries(Object.entries(fields as Record<string, Declared>).map(([name, field]) => {
    const type = typeof field?.type === 'string' && VALUE_TYPES.has(field.type) ? field.type as ValueType : 'any'
    const description = typeof field?.description === 'string' ? field.description : `the input field "${name}"`
    const sometimes = field?.required !== true && field?.default === undefined
    return [name, output(type, description, sometimes ? { optional: 'when the run input gives it' } : {})]
  })), 'the run input, its defaults filled in')
}
