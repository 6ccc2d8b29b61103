import { z } from 'zod'
import { evaluatorConfigSchema } from '../../schema/evaluator'
import { parseReference } from '../../executor/references'
import { evaluate, readEvaluatorConfigFile } from '../../evaluator'
import { modelRefOf } from '../../evaluator/config'
import { JudgeflowError } from '../../errors'
import { defineStep } from '../types'

/** The evaluator's config plus what it judges; `config_file` (JSON or TOML) is read at each evaluation. */
export const evaluatorStepConfigSchema = z.object({
  content: z.unknown().optional(),
  context: z.unknown().optional(),
  reference: z.unknown().optional(),
  candidates: z.unknown().optional(),
  /** Scorers: the output, what was expected, and the data before the edit. Trace: the reasoning trace. */
  actual: z.unknown().optional(),
  expected: z.unknown().optional(),
  original: z.unknown().optional(),
  trace: z.unknown().optional(),
  config_file: z.string().min(1).optional(),
}).passthrough().superRefine((value, ctx) => {
  if (value.config_file) return
  // In a step, `trace` is the data to score; the evaluator's trace settings go under `trace_options`.
  const { content: _c, context: _x, reference: _r, candidates: _k, actual: _a, expected: _e, original: _o, trace: _t, config_file: _f, trace_options, ...config } = value
  const parsed = evaluatorConfigSchema.safeParse({ ...config, ...(trace_options ? { trace: trace_options } : {}) })
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const path = issue.path[0] === 'trace' ? ['trace_options', ...issue.path.slice(1)] : issue.path
      ctx.addIssue({ code: 'custom', path, message: issue.message })
    }
  }
})
export type EvaluatorStepConfig = z.infer<typeof evaluatorStepConfigSchema>

const asText = (value: unknown) => (value === undefined || value === null ? undefined : typeof value === 'string' ? value : JSON.stringify(value))

/** `{{steps.a.text}}` names its candidate "a". */
function candidateIds(raw: unknown): string[] {
  if (!Array.isArray(raw)) return []
  return raw.map((item, i) => {
    const match = typeof item === 'string' ? /^\{\{([^{}]*)\}\}$/.exec(item.trim()) : null
    if (!match) return `candidate_${i + 1}`
    try {
      const ref = parseReference(match[1]!)
      return ref.root === 'steps' ? ref.nodeId! : `candidate_${i + 1}`
    }
    catch {
      return `candidate_${i + 1}`
    }
  })
}

export const evaluatorStep = defineStep({
  type: 'evaluator',
  label: 'Evaluator',
  description: 'Judges LLM output (scoring, criteria, rubric, comparison or a metric suite) and decides pass or fail.',
  configSchema: evaluatorStepConfigSchema,
  modelOf(config) {
    if (config.evaluation_type === 'scorers' || config.evaluation_type === 'trace') return []
    const fallback = config.llm_default as { model?: string, provider?: string } | undefined
    const models = [modelRefOf(config.model as string | undefined, config.provider as string | undefined), modelRefOf(fallback?.model, fallback?.provider)]
    for (const metric of (config.metrics as Array<{ model?: string, provider?: string }> | undefined) ?? []) models.push(modelRefOf(metric.model, metric.provider))
    return models.filter((m): m is string => !!m && m.includes(':') && !m.startsWith('local:'))
  },
  async run({ config, node, providers, signal, cache }) {
    const { content, context, reference, candidates, actual, expected, original, trace, config_file, trace_options, ...own } = config
    const fromFile = config_file ? readEvaluatorConfigFile(config_file) : {}
    // A file is read after references are rendered: references in it would be judged as text.
    if (JSON.stringify(fromFile).includes('{{')) {
      throw new JudgeflowError('INVALID_CONFIG', `node "${node.id}": config_file "${config_file}" holds a {{reference}}; references belong in the step config (e.g. compare_inputs), not in the file.`)
    }
    const evaluatorConfig = {
      ...fromFile, ...own,
      ...(trace_options ? { trace: trace_options } : {}),
      ...(cache === false ? { cache: false } : {}),
    }
    const result = await evaluate(evaluatorConfig, {
      content: asText(content),
      context: asText(context),
      reference: asText(reference),
      ...(Array.isArray(candidates) ? { candidates } : {}),
      actual, expected, original, trace,
    }, { providers, signal, candidateIds: candidateIds(Array.isArray(candidates) ? node.config.candidates : node.config.compare_inputs) })
    return { output: result, usage: result.usage, cached: result.judge.calls > 0 && result.judge.calls === result.judge.cached_calls }
  },
})
