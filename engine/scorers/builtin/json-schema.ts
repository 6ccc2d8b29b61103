import { Ajv, type ValidateFunction } from 'ajv'
import { JudgeflowError } from '../../errors'
import { compilePattern } from '../../text/safe-regex'
import { jsonOf } from '../data'
import { defineScorer, optionOrExpected, type ScorerContext } from '../types'

/**
 * `pattern` and `patternProperties` run on RE2 like every other user regex, so a schema cannot
 * hang the process. Ajv caches compiled patterns by their `toString()`, hence a distinct one per source.
 */
function re2(source: string) {
  const pattern = compilePattern(source, { field: 'Scorer "json-schema": schema pattern' })
  return { test: (text: string) => pattern.test(text), toString: () => `/${source}/` }
}
re2.code = 're2js'

// Made on first use: a process that checks no schema does not pay for Ajv's own (meta-schema) set-up.
let instance: Ajv | undefined
const ajv = () => (instance ??= new Ajv({ allErrors: true, strict: false, code: { regExp: re2 } }))
const validators = new Map<string, ValidateFunction>()

export const schemaErrorsText = (validate: ValidateFunction) => ajv().errorsText(validate.errors)

const schemaOf = (value: unknown) => (value && typeof value === 'object' ? value : undefined)

/** A compiled validator for the schema (cached), its patterns on RE2; INVALID_CONFIG naming `where` when the schema is invalid. */
export function validatorFor(schema: object | boolean, where = 'Scorer "json-schema"'): ValidateFunction {
  const key = JSON.stringify(schema)
  let validate = validators.get(key)
  if (!validate) {
    try {
      validate = ajv().compile(schema)
    }
    catch (error) {
      if (error instanceof JudgeflowError) throw error
      throw new JudgeflowError('INVALID_CONFIG', `${where}: the schema is invalid: ${(error as Error).message}.`)
    }
    if (validators.size > 200) validators.clear()
    validators.set(key, validate)
  }
  return validate
}

/** The output is parsed first: output that is not JSON fails whatever the schema. */
function checkSchema(actual: unknown, expected: unknown, { options }: ScorerContext) {
  const parsed = jsonOf(actual)
  if (!parsed.ok) return { score: 0, valid: false, errors: [`not valid JSON: ${parsed.error}`] }
  const validate = validatorFor(optionOrExpected(options, expected, ['schema'], schemaOf, 'Scorer "json-schema" needs a JSON Schema'))
  const valid = validate(parsed.value)
  return { score: valid ? 1 : 0, valid, errors: valid ? [] : (validate.errors ?? []).map(e => `${e.instancePath || '(root)'} ${e.message}`) }
}

export const jsonSchema = defineScorer({
  type: 'json-schema',
  label: 'JSON Schema',
  description: 'The output is JSON valid against a JSON Schema (options.schema, or expected).',
  defaultThreshold: 1,
  input: 'json',
  analyze: checkSchema,
})
