import { JudgeflowError } from '../errors'
import type { Workflow } from '../schema/workflow'
import { validateWorkflow, type Problem, type ValidateOptions } from '../graph/validate'
import type { StepRegistry } from '../steps/registry'
import type { Providers } from '../providers/types'
import { applyInputFields, inputStep } from '../steps/input'
import { Execution, type ExecuteOptions } from './execution'
import { checkStepJudge } from '../evaluator/judge-fallback'
import type { RunResult } from './types'
import { asSentence } from '../text/sentence'

export function invalidWorkflowError(problems: Problem[]): JudgeflowError {
  const more = problems.length > 1 ? ` (and ${problems.length - 1} more problem${problems.length > 2 ? 's' : ''})` : ''
  return new JudgeflowError('INVALID_WORKFLOW', asSentence(`The workflow is invalid: ${problems[0]!.message}${more}`), { details: problems })
}

/** The definition checked and typed; throws INVALID_WORKFLOW listing every problem. */
export function validatedWorkflow(raw: unknown, registry: StepRegistry, options: ValidateOptions = {}): Workflow {
  const validation = validateWorkflow(raw, registry, options)
  if (!validation.ok) throw invalidWorkflowError(validation.problems)
  return validation.workflow
}

/** A step's missing key can also be worked around by pinning its output. */
const PIN_REMEDY = 'Set it in the environment, or pin this step\'s output to run offline.'

/**
 * What is checked per run of a valid workflow: the input against the input nodes' fields
 * (defaults filled in) and the API key of every model a non-pinned step will call.
 */
export function prepareInput(workflow: Workflow, deps: { registry: StepRegistry, providers: Providers, input?: unknown }): Record<string, unknown> {
  let input = (deps.input ?? {}) as Record<string, unknown>
  for (const node of workflow.nodes) {
    if (node.type === 'input') input = applyInputFields(inputStep.configSchema.parse(node.config), input, node.id)
    checkKeys(node, deps)
  }
  return input
}

/** The key of every model a non-pinned step will call (a metric suite's default judge included); throws MISSING_API_KEY. */
function checkKeys(node: Workflow['nodes'][number], deps: { registry: StepRegistry, providers: Providers }): void {
  for (const model of modelsOf(node, deps.registry)) deps.providers.check(model, `node "${node.id}"`, PIN_REMEDY)
  // With a real judge required, an evaluator that names none and would be judged offline for want of a key.
  checkStepJudge(node, deps.providers)
}

/** The models of each step, found once per step object: a validated workflow is shared by all its runs and not changed. */
const stepModels = new WeakMap<object, { registry: StepRegistry, models: readonly string[] }>()

/** The models a step calls: none when pinned, or when its config is invalid (the validation refuses it for that). */
function modelsOf(node: Workflow['nodes'][number], registry: StepRegistry): readonly string[] {
  const known = stepModels.get(node)
  if (known?.registry === registry) return known.models
  const definition = registry.get(node.type)
  const config = definition?.configSchema.safeParse(node.config)
  const found = node.pinned || !config?.success ? [] : definition!.modelOf?.(config.data) ?? []
  const models = typeof found === 'string' ? [found] : found
  stepModels.set(node, { registry, models })
  return models
}

/**
 * What the run's start would refuse for a missing key, said of each step beforehand (the editor
 * shows it as a warning on the step): the very check the run makes.
 */
export function missingKeyWarnings(workflow: Workflow, deps: { registry: StepRegistry, providers: Providers }): Array<{ node: string, message: string }> {
  const warnings: Array<{ node: string, message: string }> = []
  for (const node of workflow.nodes) {
    try {
      checkKeys(node, deps)
    }
    catch (error) {
      if (!(error instanceof JudgeflowError) || error.code !== 'MISSING_API_KEY') throw error
      warnings.push({ node: node.id, message: error.message })
    }
  }
  return warnings
}

/** Everything checked before a run starts: the definition, the input, the keys. */
export function prepareRun(
  raw: unknown,
  deps: { registry: StepRegistry, providers: Providers, input?: unknown },
): { workflow: Workflow, input: Record<string, unknown> } {
  // The models are checked against the providers the run calls: the caller's own included.
  const workflow = validatedWorkflow(raw, deps.registry, { providers: deps.providers.providerIds?.() })
  return { workflow, input: prepareInput(workflow, deps) }
}

/** Validates, checks and runs a workflow to its end. */
export async function runWorkflow(raw: unknown, options: ExecuteOptions & { resumed?: boolean }): Promise<RunResult> {
  const { workflow, input } = prepareRun(raw, options)
  return new Execution(workflow, { ...options, input }).run(options.resumed)
}
