import { JudgeflowError } from '../errors'
import { formatPath } from '../graph/validate'
import { deterministicTypes, evaluatorConfigSchema, METRIC_DEFAULT_MODEL, type EvaluatorConfig, type RubricGrade } from '../schema/evaluator'
import { DEFAULT_GRADES } from './arithmetic'

export interface ConfigProblem {
  path: string
  message: string
}

/** A checked config: the model resolved, weights filled in, rubric bands sorted high to low. */
export interface ResolvedEvaluatorConfig extends Omit<EvaluatorConfig, 'temperature' | 'max_retries'> {
  model: string
  temperature: number
  max_retries: number
  /** The judge settings given at the top level, as given: the metric suite falls back to them. */
  declared: Pick<EvaluatorConfig, 'model' | 'temperature' | 'max_tokens' | 'max_retries'>
  weights: Record<string, number>
  grades: RubricGrade[]
}

const WEIGHT_TOLERANCE = 1e-6

export function invalidConfig(problems: ConfigProblem[], what = 'evaluator config'): JudgeflowError {
  const text = problems.map(p => `${p.path}: ${p.message}`).join('; ')
  return new JudgeflowError('INVALID_CONFIG', `Invalid ${what}: ${text}${/[.?!]$/.test(text) ? '' : '.'}`, { details: problems })
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

export function checkGrades(grades: readonly RubricGrade[], problems: ConfigProblem[]): RubricGrade[] {
  const seen = new Set<string>()
  const minScores = new Set<number>()
  grades.forEach((band, i) => {
    if (seen.has(band.grade)) problems.push({ path: `rubric.grades[${i}].grade`, message: `grade "${band.grade}" appears more than once` })
    if (minScores.has(band.min_score)) problems.push({ path: `rubric.grades[${i}].min_score`, message: `${band.min_score} is the min_score of another grade too: the bands overlap` })
    seen.add(band.grade)
    minScores.add(band.min_score)
  })
  const sorted = [...grades].sort((a, b) => b.min_score - a.min_score)
  if (sorted.length && sorted.at(-1)!.min_score > 0) {
    problems.push({ path: 'rubric.grades', message: `scores below ${sorted.at(-1)!.min_score} have no grade: give the lowest grade min_score 0` })
  }
  return sorted
}

/**
 * Validates an evaluator config before any call and resolves its defaults. Every problem is
 * reported at once, each naming its field.
 */
export function resolveEvaluatorConfig(raw: unknown, defaultModel: string): ResolvedEvaluatorConfig {
  const parsed = evaluatorConfigSchema.safeParse(raw)
  if (!parsed.success) {
    throw invalidConfig(parsed.error.issues.map(issue => ({ path: formatPath(issue.path) || '(config)', message: issue.message })))
  }
  const config = parsed.data
  const problems: ConfigProblem[] = []
  const deterministic = deterministicTypes.includes(config.evaluation_type)
  const metrics = config.evaluation_type === 'metrics'
  // The metric suite has its own built-in default (FR-019), never the server's default judge.
  const fallback = metrics ? modelRefOf(config.default_model, config.default_provider ?? config.provider) ?? METRIC_DEFAULT_MODEL : defaultModel
  const model = deterministic ? 'local:deterministic' : modelRefOf(config.model, config.provider) ?? fallback
  const modelField = !config.model && config.default_model ? 'default_model' : 'model'
  if (!deterministic && !/^[a-z][a-z0-9_-]*:\S/.test(model)) problems.push({ path: modelField, message: `must be "provider:model", e.g. "openai:gpt-4o-mini", not "${model}"` })
  if (config.model && config.default_model) problems.push({ path: 'default_model', message: 'give the model once: as model or as default_model, not both' })
  for (const key of ['default_model', 'default_provider', 'enabled_metrics', 'metric_weights'] as const) {
    if (!metrics && config[key] !== undefined) problems.push({ path: key, message: 'is only used by evaluation_type "metrics"' })
  }

  let criteria = config.criteria ?? []
  if (config.evaluation_type === 'scoring') {
    criteria = [{ name: 'overall', description: criteria.map(c => c.description ?? c.name).join('; ') || 'Overall quality of the response for the question or context.', weight: 1 }]
  }
  else if ((config.evaluation_type === 'rubric' || config.evaluation_type === 'comparison') && !criteria.length) {
    criteria = [{ name: 'overall', description: 'Overall quality of the response for the question or context.' }]
  }
  else if (deterministic) criteria = []
  else if (config.evaluation_type === 'criteria' && !criteria.length) {
    problems.push({ path: 'criteria', message: 'needs at least one criterion for evaluation_type "criteria"' })
  }
  const names = new Set<string>()
  criteria.forEach((c, i) => {
    if (names.has(c.name)) problems.push({ path: `criteria[${i}].name`, message: `"${c.name}" appears more than once` })
    names.add(c.name)
  })
  const weights = checkWeights(criteria, 'criteria', problems)
  const grades = config.evaluation_type === 'rubric' ? checkGrades(config.rubric?.grades ?? DEFAULT_GRADES, problems) : []
  if (config.evaluation_type !== 'metrics' && config.metrics) problems.push({ path: 'metrics', message: 'is only used by evaluation_type "metrics"' })
  if (config.evaluation_type !== 'scorers' && (config.scorers || config.preset)) problems.push({ path: config.scorers ? 'scorers' : 'preset', message: 'is only used by evaluation_type "scorers"' })
  if (config.evaluation_type === 'scorers' && !config.scorers?.length && !config.preset) problems.push({ path: 'scorers', message: 'give a list of scorers or a preset (standard, strict, operation-focused)' })
  if (config.evaluation_type === 'scorers' && config.scorers?.length && config.preset) problems.push({ path: 'preset', message: 'give either scorers or a preset, not both' })
  if (config.evaluation_type !== 'trace' && config.trace) problems.push({ path: 'trace', message: 'is only used by evaluation_type "trace"' })
  if (problems.length) throw invalidConfig(problems)
  const declared = { model: modelRefOf(config.model, config.provider) ?? modelRefOf(config.default_model, config.default_provider ?? config.provider), temperature: config.temperature, max_tokens: config.max_tokens, max_retries: config.max_retries }
  return { ...config, model, temperature: config.temperature ?? 0, max_retries: config.max_retries ?? 2, declared, criteria, weights, grades }
}
