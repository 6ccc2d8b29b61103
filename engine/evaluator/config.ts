import { formatPath } from '../graph/path'
import { evaluatorConfigSchema, type EvaluatorConfig } from '../schema/evaluator'
import type { Criterion, RubricGrade } from '../schema/evaluator'
import { invalidConfig, checkWeights, isModelRef, modelRefOf, type ConfigProblem } from '../evaluation-types/checks'
import { evaluationTypeChecks } from '../evaluation-types/config-schema'
import type { EvaluationTypeChecks } from '../evaluation-types/parts'
import { evaluationTypeSpec, evaluationTypes } from '../evaluation-types/specs'
import { PANEL_TYPES } from '../evaluation-types/specs'

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

/** `judges` and `panel`: a panel of distinct `provider:model` judges, instead of `model`, on a type that has panels. */
function checkPanel(config: EvaluatorConfig, usesJudge: boolean, problems: ConfigProblem[]): void {
  if (config.panel && !config.judges) problems.push({ path: 'panel', message: 'applies to a judge panel: list its models in "judges"' })
  if (!config.judges) return
  if (!usesJudge || !PANEL_TYPES.includes(config.evaluation_type)) {
    problems.push({ path: 'judges', message: `a judge panel is not available for evaluation_type "${config.evaluation_type}" (only ${PANEL_TYPES.join(', ')}); name one judge in "model"` })
    return
  }
  if (config.model || config.provider) problems.push({ path: 'model', message: 'give one judge in "model" or a panel in "judges", not both' })
  const seen = new Set<string>()
  config.judges.forEach((judge, i) => {
    if (!isModelRef(judge)) problems.push({ path: `judges[${i}]`, message: `must be "provider:model", e.g. "openai:gpt-4o-mini", not "${judge}"` })
    if (seen.has(judge)) problems.push({ path: `judges[${i}]`, message: `"${judge}" appears more than once` })
    seen.add(judge)
  })
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
  if (definition.usesJudge && !isModelRef(model)) problems.push({ path: modelField, message: `must be "provider:model", e.g. "openai:gpt-4o-mini", not "${model}"` })
  checkPanel(config, definition.usesJudge, problems)
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
