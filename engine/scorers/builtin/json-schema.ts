import { Ajv, type ValidateFunction } from 'ajv'
import { JudgeflowError } from '../../errors'
import { jsonOf } from '../data'
import { defineScorer } from '../types'

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
  measure(actual, expected, { options }) {
    const details = checkSchema(actual, expected, options)
    return { score: details.valid ? 1 : 0, details }
  },
})
