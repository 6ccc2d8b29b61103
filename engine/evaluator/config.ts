import { formatPath } from '../graph/path'
import { evaluatorConfigSchema, type EvaluatorConfig } from '../schema/evaluator'
import type { Criterion, RubricGrade } from '../schema/evaluator'
import { invalidConfig, checkWeights, modelRefOf, type ConfigProblem } from '../evaluation-types/checks'
import { evaluationTypeChecks } from '../evaluation-types/config-schema'
import type { EvaluationTypeChecks } from '../evaluation-types/parts'
import { evaluationTypeSpec, evaluationTypes } from '../evaluation-types/specs'

export { checkWeights, invalidConfig, modelRefOf, type ConfigProblem }

/** What resolving adds to any config: the model resolved, weights filled in, rubric bands sorted high to low. */
export interface ResolvedSettings {
  model: string
  temperature: number
  max_retries: number
  /** The judge settings given at the top level, as given: the metric suite falls back to them. */
  declared: Pick<EvaluatorConfig, 'model' | 'temperature' | 'max_tokens' | 'max_retries'>
  criteria: Criterion[]
  weights: Record<string, number>
  grades: RubricGrade[]
}

/** A checked config of one type (`C`), or of any. */
export type ResolvedEvaluatorConfig<C extends EvaluatorConfig = EvaluatorConfig> = C & ResolvedSettings

/** Where each type's exclusive fields belong: a field given to another type is named as a mistake. */
const exclusiveFields = evaluationTypes.flatMap(type => (evaluationTypeChecks[type].exclusive ?? []).map(group => ({ keys: typeof group === 'string' ? [group] : group, type })))

/** Fields of another type that are a mistake here (the others are set aside by the schema). */
function misplacedFields(raw: Record<string, unknown>, type: string, problems: ConfigProblem[]): void {
  for (const { keys, type: owner } of exclusiveFields) {
    if (owner === type) continue
    const given = keys.find(key => raw[key] !== undefined)
    if (given) problems.push({ path: given, message: `is only used by evaluation_type "${owner}"` })
  }
}

/**
 * Validates an evaluator config before any call and resolves its defaults. Every problem is
 * reported at once, each naming its field. Browser-safe: the editor's validation worker runs it
 * on each evaluator step, so the editor flags what a run would refuse.
 */
export function resolveEvaluatorConfig(raw: unknown, defaultModel: string): ResolvedEvaluatorConfig {
  const parsed = evaluatorConfigSchema.safeParse(raw)
  if (!parsed.success) {
    throw invalidConfig(parsed.error.issues.map(issue => ({ path: formatPath(issue.path) || '(config)', message: issue.message })))
  }
  const config = parsed.data
  // The type's checks (its schema.ts) and whether it asks a judge (its spec): what the server's definition holds too.
  const checks = evaluationTypeChecks[config.evaluation_type] as EvaluationTypeChecks<EvaluatorConfig>
  const definition = { ...evaluationTypeSpec(config.evaluation_type)!, ...checks }
  const problems: ConfigProblem[] = []
  const own = definition.judgeDefault?.(config)
  const model = definition.usesJudge ? modelRefOf(config.model, config.provider) ?? own?.declared ?? own?.fallback ?? defaultModel : 'local:deterministic'
  const modelField = !config.model && own?.declared ? own.field : 'model'
  if (definition.usesJudge && !/^[a-z][a-z0-9_-]*:\S/.test(model)) problems.push({ path: modelField, message: `must be "provider:model", e.g. "openai:gpt-4o-mini", not "${model}"` })
  misplacedFields(raw as Record<string, unknown>, config.evaluation_type, problems)
  const { criteria = [], grades = [] } = definition.resolve?.(config, problems) ?? {}
  const names = new Set<string>()
  criteria.forEach((c, i) => {
    if (names.has(c.name)) problems.push({ path: `criteria[${i}].name`, message: `"${c.name}" appears more than once` })
    names.add(c.name)
  })
  const weights = checkWeights(criteria, 'criteria', problems)
  if (problems.length) throw invalidConfig(problems)
  const declared = {
    model: modelRefOf(config.model, config.provider) ?? own?.declared,
    temperature: config.temperature,
    max_tokens: config.max_tokens,
    max_retries: config.max_retries,
  }
  return { ...config, model, temperature: config.temperature ?? 0, max_retries: config.max_retries ?? 2, declared, criteria, weights, grades }
}
