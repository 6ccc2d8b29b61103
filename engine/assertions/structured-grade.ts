import { SaxesParser } from 'saxes'
import { XMLParser } from 'fast-xml-parser'
import { parseYamlChecked } from '../text/safe-yaml'
import { DEFAULT_MAX_JSON_DEPTH, MAX_VALUE_DEPTH, parseJsonWithin } from '../text/safe-json'
import { schemaErrorsText, validatorFor } from '../scorers/builtin/json-schema'
import { passFail, type Assertion, type HandlerGrade } from './types'

/**
 * How the JSON and XML assertions grade: the parsers and the schema validator, loaded the first
 * time one of them grades, so what only checks a workflow (the editor) never loads them.
 */

/** The assertion's JSON Schema: an object, or YAML/JSON text; a failed grade when it is not one. */
function schemaOf(assertion: Assertion): { schema: object | boolean } | { failure: HandlerGrade } {
  try {
    const schema = typeof assertion.value === 'string'
      ? parseYamlChecked(assertion.value, { maxDepth: DEFAULT_MAX_JSON_DEPTH, where: `${assertion.type}'s schema` })
      : assertion.value
    if (typeof schema !== 'boolean' && (typeof schema !== 'object' || schema === null)) throw new Error(`${assertion.type} assertion must have a string, boolean, or object value`)
    validatorFor(schema, `${assertion.type}'s schema`)
    return { schema }
  }
  catch (error) {
    return { failure: { pass: false, score: 0, reason: `Invalid JSON schema: ${(error as Error).message}` } }
  }
}

/** Every `{…}` in the text that reads as a JSON (or YAML flow) object, left to right, an unclosed one closed at the end. */
export function jsonObjectsIn(text: string): object[] {
  const found: object[] = []
  const limit = 100_000
  for (let i = 0; i < text.length; i++) {
    if (text[i] !== '{') continue
    let open = 1
    let close = 0
    for (let j = i + 1; j < Math.min(i + limit, text.length) && open > close;) {
      if (text[j] === '{') open++
      if (text[j] === '}') close++
      j++
      if (open !== close && j !== text.length && j !== i + limit) continue
      const candidate = text.slice(i, j) + '}'.repeat(Math.max(0, open - close))
      const parsed = readObject(candidate)
      if (parsed) {
        found.push(parsed)
        i = j - 1
        break
      }
      if (open === close) break
    }
  }
  return found
}

function readObject(candidate: string): object | undefined {
  try {
    const value = parseJsonWithin(candidate, MAX_VALUE_DEPTH)
    if (value && typeof value === 'object') return value
  }
  catch {
    // Not strict JSON: promptfoo also accepts YAML's flow form (unquoted keys, // comments as #).
  }
  try {
    const value = parseYamlChecked(candidate.replace(/(^|[^:"'])\/\/([^\n]*)/g, '$1#$2'), { maxDepth: DEFAULT_MAX_JSON_DEPTH, where: 'the output' })
    return value && typeof value === 'object' ? value : undefined
  }
  catch {
    return undefined
  }
}

export function isJson({ assertion, text, inverse }: { assertion: Assertion, text: string, inverse: boolean }, withSchema: boolean): HandlerGrade {
  let parsed: unknown
  let pass: boolean
  try {
    parsed = parseJsonWithin(text, MAX_VALUE_DEPTH)
    pass = !inverse
  }
  catch {
    pass = inverse
  }
  if (parsed !== undefined && withSchema) {
    const schema = schemaOf(assertion)
    if ('failure' in schema) return schema.failure
    const validate = validatorFor(schema.schema, `${assertion.type}'s schema`)
    const valid = validate(parsed)
    pass = valid !== inverse
    if (!pass) return { pass, score: 0, reason: inverse ? 'Output is JSON that conforms to the provided schema' : `JSON does not conform to the provided schema. Errors: ${schemaErrorsText(validate)}` }
  }
  return passFail(pass, 'Expected output to be valid JSON')
}

export function containsJson({ assertion, text, inverse }: { assertion: Assertion, text: string, inverse: boolean }, withSchema: boolean): HandlerGrade {
  const objects = jsonObjectsIn(text)
  let pass = inverse ? objects.length === 0 : objects.length > 0
  let reason = 'Expected output to contain valid JSON'
  if (objects.length && withSchema) {
    const schema = schemaOf(assertion)
    if ('failure' in schema) return schema.failure
    const validate = validatorFor(schema.schema, `${assertion.type}'s schema`)
    for (const object of objects) {
      const valid = validate(object)
      pass = valid !== inverse
      if (valid) {
        if (inverse) reason = 'Output contains JSON conforming to the provided schema'
        break
      }
      reason = `JSON does not conform to the provided schema. Errors: ${schemaErrorsText(validate)}`
    }
  }
  return passFail(pass, reason)
}

function hasPath(tree: unknown, path: string[]): boolean {
  let at = tree
  for (const key of path) {
    if (at === null || typeof at !== 'object') return false
    if (Array.isArray(at)) {
      const index = Number(key)
      if (!Number.isInteger(index) || index < 0 || String(index) !== key || at[index] === undefined) return false
      at = at[index]
      continue
    }
    const next = (at as Record<string, unknown>)[key]
    if (next === undefined) return false
    at = next
  }
  return true
}

const treeParser = new XMLParser({ allowBooleanAttributes: true, ignoreAttributes: false, parseAttributeValue: true, parseTagValue: true })

/** An XML text with its required elements present: well formed (a strict parser), then the paths looked up. */
function checkXml(xml: string, required: string[] | undefined, strict: boolean): { valid: boolean, wellFormed: boolean, reason: string } {
  if (strict) {
    try {
      const parser = new SaxesParser({ xmlns: true })
      parser.on('doctype', (doctype) => {
        if (/\[/.test(doctype)) throw new Error('DTD internal subsets are not supported by is-xml validation')
      })
      parser.write(xml).close()
    }
    catch (error) {
      const message = (error as Error).message
      return { valid: false, wellFormed: false, reason: message.startsWith('DTD') ? message : `XML parsing failed: ${message}` }
    }
  }
  let tree: unknown
  try {
    tree = treeParser.parse(xml, true)
  }
  catch (error) {
    return { valid: false, wellFormed: false, reason: `XML parsing failed: ${(error as Error).message}` }
  }
  const missing = (required ?? []).filter(path => !hasPath(tree, path.split('.')))
  return missing.length
    ? { valid: false, wellFormed: true, reason: `XML is missing required elements: ${missing.join(', ')}` }
    : { valid: true, wellFormed: true, reason: 'XML is valid and contains all required elements' }
}

/** Spans of the text from an opening tag to its matching closing tag (or a self-closing tag), outermost first. */
export function xmlSpans(text: string): Array<{ start: number, end: number }> {
  const stack: Array<{ name: string, start: number }> = []
  const spans: Array<{ start: number, end: number, depth: number }> = []
  const tag = /<(\/?)([A-Za-z_][\w.:-]*)(?:\s[^<>]*?)?(\/?)>/g
  for (let match = tag.exec(text); match; match = tag.exec(text)) {
    const [whole, closing, name, selfClosing] = match
    if (closing) {
      const open = stack.at(-1)
      if (open && open.name === name) {
        stack.pop()
        spans.push({ start: open.start, end: match.index + whole.length, depth: stack.length })
      }
      else stack.length = 0
    }
    else if (selfClosing) spans.push({ start: match.index, end: match.index + whole.length, depth: stack.length })
    else stack.push({ name: name!, start: match.index })
  }
  return spans.sort((a, b) => a.depth - b.depth || a.start - b.start)
}

/** is-xml and contains-xml, with the required elements already read from the value. */
export function xml({ text, inverse, baseType }: { text: string, inverse: boolean, baseType: string }, required: string[] | undefined): HandlerGrade {
  let result: { valid: boolean, reason: string }
  if (baseType === 'is-xml') result = checkXml(text, required, true)
  else {
    const spans = xmlSpans(text)
    result = { valid: false, reason: spans.length ? 'No valid XML content found matching the requirements' : 'No XML content found in the output' }
    for (const span of spans) {
      const checked = checkXml(text.slice(span.start, span.end), required, false)
      if (checked.valid) {
        result = checked
        break
      }
    }
  }
  return passFail(result.valid !== inverse, result.reason)
}
