import { importFolderModules } from '../../modules/load-folder'
import { CLARITY_COHERENCE_INSTRUCTION, COVERAGE_INSTRUCTION, LLM_PLAIN_INSTRUCTION, RELEVANCE_INSTRUCTION } from './prompts'
import { JudgeflowError } from '../../errors'

export interface MetricInput {
  user_query?: string
  submission: string
  reference?: string
}

/**
 * A metric of the suite. An LLM-judged metric has a default system instruction (replaceable per
 * config); a metric with `score` is computed in code and ignores the LLM parameters.
 */
export interface MetricDefinition {
  name: string
  description: string
  systemInstruction?: string
  score?(input: MetricInput): { score: number, evaluator_comment: string } | Promise<{ score: number, evaluator_comment: string }>
}

export const builtinMetrics: readonly MetricDefinition[] = [
  { name: 'ClarityCoherence', description: 'Clear structure, well-formed sentences, a logical order, no contradictions.', systemInstruction: CLARITY_COHERENCE_INSTRUCTION },
  { name: 'Coverage', description: 'Addresses every part of the query with enough depth.', systemInstruction: COVERAGE_INSTRUCTION },
  { name: 'Relevance', description: 'Answers the query directly and stays on topic.', systemInstruction: RELEVANCE_INSTRUCTION },
  { name: 'LLMPlain', description: 'General quality, by the instruction you give it.', systemInstruction: LLM_PLAIN_INSTRUCTION },
]

/** The metrics used when a config lists none. */
export { DEFAULT_METRICS } from '../../evaluation-types/metrics/spec'

/** Built-in and custom metrics, found by name. */
export class MetricRegistry {
  private readonly byName = new Map<string, MetricDefinition>()

  constructor(definitions: readonly MetricDefinition[] = builtinMetrics) {
    for (const definition of definitions) this.register(definition)
  }

  register(definition: MetricDefinition): void {
    if (!definition?.name || typeof definition.name !== 'string') throw new JudgeflowError('INVALID_CONFIG', 'a metric needs a name')
    if (!definition.systemInstruction && typeof definition.score !== 'function') throw new JudgeflowError('INVALID_CONFIG', `metric "${definition.name}" needs a systemInstruction or a score function`)
    if (this.byName.has(definition.name)) throw new JudgeflowError('INVALID_CONFIG', `metric "${definition.name}" is registered twice`)
    this.byName.set(definition.name, definition)
  }

  get(name: string): MetricDefinition | undefined {
    return this.byName.get(name)
  }

  names(): string[] {
    return [...this.byName.keys()]
  }
}

/**
 * Loads every module of a folder as a custom metric: its default export (or `metric`) is a
 * MetricDefinition.
 */
export async function loadMetricsFolder(folder: string, registry: MetricRegistry): Promise<string[]> {
  const loaded: string[] = []
  for (const { path, exported } of await importFolderModules(folder, 'metric')) {
    const definition = exported as MetricDefinition | undefined
    if (!definition) throw new JudgeflowError('INVALID_CONFIG', `${path} exports no metric (export default { name, description, systemInstruction | score })`)
    registry.register(definition)
    loaded.push(definition.name)
  }
  return loaded
}
