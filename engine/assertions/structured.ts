import { schemaPatternProblems } from '../text/schema-patterns'
import type { Assertion, AssertionHandler, HandlerInput } from './types'

/** Checks that the output is (or holds) JSON or XML, optionally against a schema or required elements. */

const hasSchema = (value: unknown) => value !== undefined && value !== null && value !== ''

/** The required elements, as dotted paths (`root.child`): a comma-separated text, a list, or `{ requiredElements }`. */
function requiredElements(value: unknown): string[] | undefined {
  if (typeof value === 'string') return value.split(',').map(e => e.trim())
  if (Array.isArray(value) && value.length) return value.map(String)
  if (value && typeof value === 'object' && Object.keys(value).length) {
    const list = (value as { requiredElements?: unknown }).requiredElements
    if (Array.isArray(list)) return list.map(String)
    throw new Error('xml assertion must contain a string, array value, or no value')
  }
  return undefined
}

/** The parsers and the schema validator, loaded when a JSON or XML assertion first grades. */
const grading = () => import('./structured-grade')

/**
 * A schema given as an object has its patterns compiled here as grading compiles them (YAML text is
 * read only when it grades, by the parser the editor never loads).
 */
function schemaCheck(a: Assertion): string | undefined {
  if (!(!hasSchema(a.value) || typeof a.value === 'string' || typeof a.value === 'object' || typeof a.value === 'boolean')) return 'must have a JSON Schema (an object or YAML text) as its value, or none'
  const bad = schemaPatternProblems(a.value)[0]
  return bad && `its schema's ${bad.path}: ${bad.message}`
}
const xmlCheck = (a: Assertion) => {
  try {
    requiredElements(a.value)
    return undefined
  }
  catch (error) {
    return (error as Error).message
  }
}

export const structuredHandlers: AssertionHandler[] = [
  { type: 'is-json', label: 'is-json', description: 'The whole output is JSON (a fenced block is not), optionally valid against a JSON Schema.', negatable: true, check: schemaCheck, handle: async (input: HandlerInput) => (await grading()).isJson(input, hasSchema(input.assertion.value)) },
  { type: 'contains-json', label: 'contains-json', description: 'The output holds a JSON object, optionally valid against a JSON Schema.', negatable: true, check: schemaCheck, handle: async (input: HandlerInput) => (await grading()).containsJson(input, hasSchema(input.assertion.value)) },
  { type: 'is-xml', label: 'is-xml', description: 'The whole output is well-formed XML, with the required elements (dotted paths) if given.', negatable: true, check: xmlCheck, handle: async (input: HandlerInput) => (await grading()).xml(input, requiredElements(input.assertion.value)) },
  { type: 'contains-xml', label: 'contains-xml', description: 'The output holds XML with the required elements (dotted paths) if given.', negatable: true, check: xmlCheck, handle: async (input: HandlerInput) => (await grading()).xml(input, requiredElements(input.assertion.value)) },
]
