/**
 * The caller's product as a dataset run's target (`runDataset({ target })`): a function judgeflow
 * calls with each case's input, its answer judged in place of the step that generates the text the
 * evaluators judge. It runs as a step of its own type, registered only in the library's in-memory
 * app, so each case (and each repeat and retry) calls it anew and its latency is the case's.
 */
import { z } from 'zod'
import { defaultRegistry, defineStep, JudgeflowError, StepRegistry, validatedWorkflow, type Workflow } from '../engine'
import { generatingStep, type DatasetCase } from '../engine/datasets'
import { EVALUATION_INPUT_ALIASES, EVALUATION_INPUT_FIELDS } from '../engine/schema/evaluator'
import { evaluatorWorkflow } from '../core/datasets'

/** What a target answers: a text (the step's `{ text }`), or an object, the step's whole output. */
export type TargetOutput = string | Record<string, unknown>

/** What a target is told besides the case's input: the attempt (a retry step runs it again) and a signal that aborts it. */
export interface TargetContext {
  attempt: number
  signal: AbortSignal
}

/** The caller's product: a case's input in, its output out. A throw errors the case with its message (never a pass). */
export type Target = (input: Record<string, unknown>, context: TargetContext) => Promise<TargetOutput> | TargetOutput

/** The step type the target runs as; not a step type of workflows. */
export const TARGET_STEP = 'caller-target'
/** The target's step in the workflow built around an evaluator config. */
const TARGET_NODE = 'target'

/** The built-in step types and the target's, for the run's in-memory app. */
export function registryWithTarget(target: Target): StepRegistry {
  const step = defineStep<Record<string, unknown>>({
    type: TARGET_STEP,
    label: 'Your target',
    description: 'The function runDataset was given, called with the case\'s input.',
    configSchema: z.record(z.string(), z.unknown()),
    textField: 'text',
    async run(ctx) {
      let output: unknown
      try {
        output = await target(ctx.input as Record<string, unknown>, { attempt: ctx.attempt, signal: ctx.signal })
      }
      catch (error) {
        // Its own message: the case errors saying what the caller's code said.
        throw new JudgeflowError('STEP_FAILED', error instanceof Error ? error.message : `the target threw ${String(error)}`, { cause: error })
      }
      if (typeof output === 'string') return { output: { text: output } }
      if (output && typeof output === 'object' && !Array.isArray(output)) return { output }
      throw new JudgeflowError('STEP_FAILED', `the target returned ${output === null ? 'null' : Array.isArray(output) ? 'a list' : typeof output}: return the output text, or an object (the step's whole output)`)
    },
  })
  return new StepRegistry([...defaultRegistry.all(), step])
}

/**
 * The workflow with the target in place of its generating step (`outputStep`, else the one step
 * the evaluators judge: recorded-outputs.ts), the node keeping its id so references to it hold.
 */
export function workflowWithTarget(definition: Record<string, unknown>, outputStep: string | undefined, providers: readonly string[]): Record<string, unknown> {
  // Named as runDataset stores it: a workflow given without a name is not refused for that.
  const workflow: Workflow = validatedWorkflow({ ...definition, name: definition.name ?? 'workflow' }, defaultRegistry, { providers })
  const step = generatingStep(workflow, defaultRegistry, outputStep)
  const nodes = (definition.nodes as Array<Record<string, unknown>>)
    .map(node => (node.id === step ? { id: node.id, type: TARGET_STEP, config: {} } : node))
  return { ...definition, nodes }
}

/**
 * The workflow judging the target's output with an evaluator config alone: input → target →
 * evaluator, the target's text the `content`, the cases' other evaluation fields (`context`,
 * `reference`, …) passed on as `judgeflow test --config` passes them.
 */
export function evaluatorWithTarget(config: Record<string, unknown>, cases: readonly DatasetCase[]): Record<string, unknown> {
  const present = new Set(cases.flatMap(c => Object.keys(c.input)))
  // The target's text is the content: a case's own content (or its alias) is not passed on.
  const fields = EVALUATION_INPUT_FIELDS.filter(f => present.has(f) && f !== 'content' && (EVALUATION_INPUT_ALIASES as Record<string, string>)[f] !== 'content')
  const alone = evaluatorWorkflow(config, fields) as { nodes: Array<Record<string, unknown>> }
  const [input, evaluator] = alone.nodes as [Record<string, unknown>, { config: Record<string, unknown> }]
  return {
    name: 'Target and evaluator',
    nodes: [input, { id: TARGET_NODE, type: TARGET_STEP, config: {} }, { ...evaluator, config: { ...evaluator.config, content: `{{steps.${TARGET_NODE}.text}}` } }],
    edges: [{ from: input.id, to: TARGET_NODE }, { from: TARGET_NODE, to: (evaluator as { id?: unknown }).id }],
  }
}
