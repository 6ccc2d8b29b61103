import { JudgeflowError } from '../errors'

/** One problem of a config, naming its field. */
export interface ConfigProblem {
  path: string
  message: string
}

const WEIGHT_TOLERANCE = 1e-6

export function invalidConfig(problems: ConfigProblem[], what = 'evaluator config'): JudgeflowError {
  const text = problems.map(p => `${p.path}: ${p.message}`).join('; ')
  return new JudgeflowError('INVALID_CONFIG', `Invalid ${what}: ${text}${/[.?!]$/.test(text) ? '' : '.'}`, { details: problems })
}

/** Whether a model is named as `provider:model`. */
export function isModelRef(model: string): boolean {
  return /^[a-z][a-z0-9_-]*:\S/.test(model)
}

/** `provider:model`, or `provider` + a bare model name. */
export function modelRefOf(model: string | undefined, provider: string | undefined): string | undefined {
  if (!model) return undefined
  if (model.includes(':')) return model
  return provider ? `${provider}:${model}` : model
}

/**
 * Checks a weight list: every weight or none (none means equal weights), each in [0,1],
 * summing to 1.0. Problems name the field.
 */
export function checkWeights(items: ReadonlyArray<{ name: string, weight?: number }>, field: string, problems: ConfigProblem[]): Record<string, number> {
  const given = items.filter(item => item.weight !== undefined)
  if (!items.length) return {}
  if (given.length === 0) return Object.fromEntries(items.map(item => [item.name, 1 / items.length]))
  if (given.length !== items.length) {
    problems.push({ path: field, message: `give every item a weight or none (missing for ${items.filter(i => i.weight === undefined).map(i => i.name).join(', ')})` })
    return {}
  }
  const sum = given.reduce((total, item) => total + item.weight!, 0)
  if (Math.abs(sum - 1) > WEIGHT_TOLERANCE) {
    problems.push({ path: field, message: `weights must sum to 1.0, not ${Math.round(sum * 1e6) / 1e6} (${items.map(i => `${i.name} ${i.weight}`).join(', ')})` })
  }
  return Object.fromEntries(items.map(item => [item.name, item.weight!]))
}
