import { Ajv, type ValidateFunction } from 'ajv'
import { JudgeflowError } from '../../errors'
import { defineScorer, textOf } from '../types'

/** A value as JSON data: objects as they are, text parsed. */
function jsonOf(value: unknown): { ok: true, value: unknown } | { ok: false, error: string } {
  if (typeof value !== 'string') return { ok: true, value }
  try {
    return { ok: true, value: JSON.parse(value.trim().replace(/^```(?:json)?\s*|\s*```$/g, '')) }
  }
  catch (error) {
    return { ok: false, error: (error as Error).message }
  }
}

export const jsonValid = defineScorer({
  type: 'json-valid',
  label: 'Valid JSON',
  description: 'The output is valid JSON (a fenced ```json block counts).',
  defaultThreshold: 1,
  score: actual => (jsonOf(textOf(actual)).ok ? 1 : 0),
  details: (actual) => {
    const parsed = jsonOf(textOf(actual))
    return parsed.ok ? { valid: true } : { valid: false, error: parsed.error }
  },
})

const ajv = new Ajv({ allErrors: true, strict: false })
const validators = new Map<string, ValidateFunction>()

function validatorFor(schema: unknown): ValidateFunction {
  if (!schema || typeof schema !== 'object') throw new JudgeflowError('INVALID_CONFIG', 'Scorer "json-schema" needs a JSON Schema: options.schema or expected.')
  const key = JSON.stringify(schema)
  let validate = validators.get(key)
  if (!validate) {
    try {
      validate = ajv.compile(schema as object)
    }
    catch (error) {
      throw new JudgeflowError('INVALID_CONFIG', `Scorer "json-schema": the schema is invalid: ${(error as Error).message}.`)
    }
    if (validators.size > 200) validators.clear()
    validators.set(key, validate)
  }
  return validate
}

function checkSchema(actual: unknown, expected: unknown, options: Record<string, unknown>) {
  const parsed = jsonOf(actual)
  if (!parsed.ok) return { valid: false, errors: [`not valid JSON: ${parsed.error}`] }
  const validate = validatorFor(options.schema ?? expected)
  const valid = validate(parsed.value)
  return { valid, errors: valid ? [] : (validate.errors ?? []).map(e => `${e.instancePath || '(root)'} ${e.message}`) }
}

export const jsonSchema = defineScorer({
  type: 'json-schema',
  label: 'JSON Schema',
  description: 'The output is JSON valid against a JSON Schema (options.schema, or expected).',
  defaultThreshold: 1,
  score: (actual, expected, { options }) => (checkSchema(actual, expected, options).valid ? 1 : 0),
  details: (actual, expected, { options }) => checkSchema(actual, expected, options),
})

/** Leaf values by JSON path. */
function leaves(value: unknown, path = '$', out = new Map<string, string>()): Map<string, string> {
  if (value && typeof value === 'object') {
    const entries = Array.isArray(value) ? value.map((v, i) => [`[${i}]`, v] as const) : Object.entries(value).map(([k, v]) => [`.${k}`, v] as const)
    if (!entries.length) out.set(path, JSON.stringify(value))
    for (const [key, child] of entries) leaves(child, `${path}${key}`, out)
  }
  else out.set(path, JSON.stringify(value))
  return out
}

function diff(actual: unknown, expected: unknown) {
  const a = jsonOf(actual)
  const e = jsonOf(expected)
  if (!a.ok || !e.ok) return { score: 0, differences: [`not valid JSON: ${a.ok ? '' : `actual (${a.error})`}${e.ok ? '' : ` expected (${e.error})`}`.trim()] }
  const left = leaves(a.value)
  const right = leaves(e.value)
  const paths = new Set([...left.keys(), ...right.keys()])
  const differences: string[] = []
  for (const path of paths) {
    if (!left.has(path)) differences.push(`${path}: missing (expected ${right.get(path)})`)
    else if (!right.has(path)) differences.push(`${path}: unexpected ${left.get(path)}`)
    else if (left.get(path) !== right.get(path)) differences.push(`${path}: ${left.get(path)} instead of ${right.get(path)}`)
  }
  return { score: paths.size ? Math.round((1 - differences.length / paths.size) * 1e6) / 1e6 : 1, differences }
}

export const jsonDiff = defineScorer({
  type: 'json-diff',
  label: 'JSON diff',
  description: 'Share of the JSON leaf values (by path) that equal the expected JSON.',
  defaultThreshold: 1,
  score: (actual, expected) => diff(actual, expected).score,
  details: (actual, expected) => {
    const { differences } = diff(actual, expected)
    return { differences: differences.slice(0, 50), total_differences: differences.length }
  },
})
