import { resolve } from 'node:path'
import { parseReference } from '../../executor/references'
import { DEFAULT_CONFIG_DIR, evaluate, evaluatorModels, readEvaluatorConfigFile, resolveEvaluatorConfig } from '../../evaluator'
import { modelRefOf } from '../../evaluator/config'
import { JudgeflowError } from '../../errors'
import { EVALUATION_INPUT_NAMES, EVALUATION_INPUTS, type EvaluationInputName } from '../../evaluation-types/fields'
import { defineStep } from '../types'
import { CONTENT_NOT_SET, evaluatorSpec, judgesContent, splitStepConfig } from './spec'

export { evaluatorStepConfigSchema, type EvaluatorStepConfig } from './spec'

const asText = (value: unknown) => (value === undefined || value === null ? undefined : typeof value === 'string' ? value : JSON.stringify(value))

/** The step's inputs as an evaluation takes them, each written as its kind says (EVALUATION_INPUTS): texts as text, candidates only as a list. */
function evaluationInputOf(data: Partial<Record<EvaluationInputName, unknown>>): Record<string, unknown> {
  const input: Record<string, unknown> = {}
  for (const name of EVALUATION_INPUT_NAMES) {
    const value = data[name]
    const kind = EVALUATION_INPUTS[name].value
    if (kind === 'text') input[name] = asText(value)
    else if (kind === 'candidates') {
      if (Array.isArray(value)) input[name] = value
    }
    else input[name] = value
  }
  return input
}

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
  ...evaluatorSpec,
  modelOf(config) {
    const { evaluator, configFile } = splitStepConfig(config)
    const remote = (models: Array<string | undefined>) => models.filter((m): m is string => !!m && m.includes(':') && !m.startsWith('local:'))
    // A config file is read when the step runs: until then, the judge the step itself names.
    if (configFile) return remote([modelRefOf(config.model as string | undefined, config.provider as string | undefined)])
    // Every model the evaluation will call (a metric suite's, its built-in default included), by the
    // evaluator's own rule, so a missing key stops the run before it starts.
    try {
      return remote(evaluatorModels(resolveEvaluatorConfig(evaluator, 'local:heuristic')))
    }
    catch {
      // An invalid config is reported by validation and by the run, naming its fields.
      return []
    }
  },
  async run({ config, node, providers, evaluation, signal, cache }) {
    const { data, configFile, evaluator } = splitStepConfig(config)
    const { content, candidates } = data
    const fromFile = configFile ? await readEvaluatorConfigFile(String(configFile), { within: resolve(evaluation.configDir ?? DEFAULT_CONFIG_DIR) }) : {}
    // A file is read after references are rendered: references in it would be judged as text.
    if (JSON.stringify(fromFile).includes('{{')) {
      throw new JudgeflowError('INVALID_CONFIG', `node "${node.id}": config_file "${configFile}" holds a {{reference}}; references belong in the step config (e.g. compare_inputs), not in the file.`)
    }
    const evaluatorConfig = { ...fromFile, ...evaluator, ...(cache === false ? { cache: false } : {}) }
    if (content === undefined && candidates === undefined && judgesContent(evaluatorConfig)) {
      throw new JudgeflowError('INVALID_CONFIG', `node "${node.id}": ${CONTENT_NOT_SET}.`)
    }
    const ids = candidateIds(Array.isArray(candidates) ? node.config.candidates : node.config.compare_inputs)
    const result = await evaluate(evaluatorConfig, evaluationInputOf(data), { ...evaluation, providers, signal, candidateIds: ids })
    return { output: result, usage: result.usage, cached: result.judge.calls > 0 && result.judge.calls === result.judge.cached_calls }
  },
})
