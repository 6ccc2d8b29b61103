import { z } from 'zod'
import { evaluatorConfigSchema } from '../../schema/evaluator'
import { contentTypes, evaluationTypeSpec, type EvaluationType } from '../../schema/evaluation-types'
import { defineStepSpec, type GraphDefaults, type UpstreamStep } from '../types'
import { resolveEvaluatorConfig } from '../../evaluator/config'
import { JudgeflowError } from '../../errors'
import type { ConfigProblem } from '../../evaluation-types/checks'
import { givenByStep, missingInputs } from '../../evaluation-types/inputs'
import { EVALUATION_INPUT_NAMES, splitStepConfig, type EvaluationInputName } from '../../evaluation-types/fields'
import { evaluatorOutputs } from './outputs'
import { builtinStepMeta } from '../step-meta'

export { splitStepConfig }

/** The evaluator's config plus what it judges; `config_file` (JSON or TOML) is read at each evaluation. */
export const evaluatorStepConfigSchema = z.object({
  // What is judged: each input an evaluation may be given (EVALUATION_INPUTS), any value (references render to it).
  ...Object.fromEntries(EVALUATION_INPUT_NAMES.map(name => [name, z.unknown().optional()])) as Record<EvaluationInputName, z.ZodOptional<z.ZodUnknown>>,
  /** A path in the config folder, fixed in the workflow: a run's input never chooses which file is read. */
  config_file: z.string().min(1).max(1024)
    .refine(path => !path.includes('{{'), 'cannot hold a {{reference}}: name a file in the config folder (JUDGEFLOW_CONFIG_DIR)')
    .refine(path => /\.(json|toml)$/i.test(path), 'must name a .json or .toml file')
    .optional(),
}).passthrough().superRefine((value, ctx) => {
  if (value.config_file) return
  const parsed = evaluatorConfigSchema.safeParse(splitStepConfig(value).evaluator)
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const path = issue.path[0] === 'trace' ? ['trace_options', ...issue.path.slice(1)] : issue.path
      ctx.addIssue(issue.code === 'unrecognized_keys' ? { ...issue, path } : { code: 'custom', path, message: issue.message })
    }
  }
})
export type EvaluatorStepConfig = z.infer<typeof evaluatorStepConfigSchema>

/** Whether the step judges one text: by its type, or (type in a config file) possibly. */
export function judgesContent(config: Record<string, unknown>): boolean {
  const type = config.evaluation_type as EvaluationType | undefined
  return type ? contentTypes.includes(type) : config.config_file !== undefined
}

/**
 * What a comparison ranks by default: with no `compare_inputs` nor `candidates`, the texts of the
 * steps wired into it (LLM steps), each named by its step's id.
 */
function candidatesFromGraph(config: Record<string, unknown>, upstream: readonly UpstreamStep[]): GraphDefaults {
  if (config.compare_inputs !== undefined || config.candidates !== undefined) return {}
  const texts = upstream.filter(step => step.spec?.textField)
  return texts.length ? { config: { candidates: texts.map(step => ({ id: step.id, text: `{{steps.${step.id}.${step.spec!.textField}}}` })) } } : {}
}

/**
 * What an evaluator step takes from the graph: without `content`, the step judges the text of
 * the one step that leads into it (an LLM's `text`), and with none or several it cannot tell which;
 * a comparison without candidates ranks the steps wired into it.
 */
export function contentFromGraph(config: Record<string, unknown>, upstream: readonly UpstreamStep[]): GraphDefaults {
  if (evaluationTypeSpec(config.evaluation_type)?.candidatesFromGraph) return candidatesFromGraph(config, upstream)
  // Given candidates (a comparison of a test's outputs), an evaluator judges them, not one content.
  if (config.content !== undefined || config.candidates !== undefined || !judgesContent(config)) return {}
  if (upstream.length === 1) {
    const [step] = upstream as [UpstreamStep]
    return { config: { content: `{{steps.${step.id}${step.spec?.textField ? `.${step.spec.textField}` : ''}}}` } }
  }
  const example = `{{steps.${upstream[0]?.id ?? 'draft'}.text}}`
  return {
    warning: {
      field: 'content',
      message: upstream.length
        ? `no content is set and ${upstream.length} steps lead into this one (${upstream.map(u => u.id).join(', ')}): set content to the text to judge, e.g. ${example}`
        : `no content is set and no step leads into this one: set content to the text to judge, e.g. ${example}`,
    },
  }
}

/** Why a step that judges one text and has no `content` (none from the graph either) fails when it runs. */
export const CONTENT_NOT_SET = 'content is not set: set it to the text to judge, e.g. {{steps.draft.text}} (without it, an evaluator judges the text of the one step leading into it, and this one has none or several)'

/**
 * What the step's run refuses: no content to judge, and what the evaluator's config check
 * (`resolveEvaluatorConfig`, the run's own) finds beyond the schema, such as a criteria evaluator
 * without criteria or another type's settings. A config in a file is read only by the run.
 */
export function evaluatorRunProblems(config: Record<string, unknown>): ConfigProblem[] {
  const { data, configFile, evaluator } = splitStepConfig(config)
  if (configFile) return []
  const problems: ConfigProblem[] = []
  if (data.content === undefined && data.candidates === undefined && judgesContent(evaluator)) problems.push({ path: 'content', message: CONTENT_NOT_SET.replace(/^content /, '') })
  // A config the schema refuses is reported by validation, field by field.
  if (!evaluatorConfigSchema.safeParse(evaluator).success) return problems
  try {
    // The model is checked for its form only: which keys the server has is its own business.
    problems.push(...missingInputs(resolveEvaluatorConfig(evaluator, 'local:heuristic'), givenByStep(config)))
  }
  catch (error) {
    if (!(error instanceof JudgeflowError) || !Array.isArray(error.details)) throw error
    for (const problem of error.details as ConfigProblem[]) problems.push({ ...problem, path: problem.path.replace(/^trace\b/, 'trace_options') })
  }
  return problems
}

export const evaluatorSpec = defineStepSpec({
  type: 'evaluator',
  label: builtinStepMeta.evaluator.label,
  description: 'Judges LLM output (scoring, criteria, rubric, comparison or a metric suite) and decides pass or fail.',
  configSchema: evaluatorStepConfigSchema,
  fromGraph: contentFromGraph,
  runProblems: evaluatorRunProblems,
  outputs: evaluatorOutputs,
})
