import { JudgeflowError } from '../../errors'
import { defineStep } from '../types'
import { inputSpec, type InputConfig } from './spec'

export { inputFieldSchema, type InputConfig } from './spec'

function typeOf(value: unknown): string {
  if (Array.isArray(value)) return 'array'
  if (value === null) return 'null'
  return typeof value
}

/** Checks a run input against the input node's fields and fills defaults. Names every bad variable. */
export function applyInputFields(config: InputConfig, input: unknown, nodeId: string): Record<string, unknown> {
  if (input !== undefined && (input === null || typeof input !== 'object' || Array.isArray(input))) {
    throw new JudgeflowError('INVALID_INPUT', `the run input must be a JSON object, not ${typeOf(input)}`)
  }
  const out: Record<string, unknown> = { ...(input as Record<string, unknown> | undefined) }
  const problems: string[] = []
  for (const [name, field] of Object.entries(config.fields ?? {})) {
    // Own keys only: a field named like an Object method ("constructor") is an ordinary field.
    if (!Object.hasOwn(out, name) || out[name] === undefined) {
      if (field.default !== undefined) out[name] = field.default
    }
    const value = Object.hasOwn(out, name) ? out[name] : undefined
    if (value === undefined) {
      if (field.required) problems.push(`input "${name}" is required`)
      continue
    }
    if (field.type !== 'any' && typeOf(value) !== field.type) problems.push(`input "${name}" must be a ${field.type}, not ${typeOf(value)}`)
  }
  if (problems.length) throw new JudgeflowError('INVALID_INPUT', `${problems.join('; ')} (node "${nodeId}")`, { details: problems })
  return out
}

export const inputStep = defineStep({
  ...inputSpec,
  async run({ config, input, node }) {
    return { output: applyInputFields(config, input, node.id) }
  },
})
