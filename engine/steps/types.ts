import type { z } from 'zod'
import type { WorkflowNode, WorkflowSettings } from '../schema/workflow'
import type { Providers } from '../providers/types'
import type { EvaluationServices } from '../evaluator/index'
import type { OutputField } from './outputs'

export interface TokenUsage {
  input_tokens: number
  output_tokens: number
}

/** What a step run hands back to the executor. */
export interface StepOutcome {
  output: unknown
  /** The branch taken, for steps that have branches (condition: true/false, retry: exhausted). */
  branch?: string
  usage?: TokenUsage
  cached?: boolean
  /** Set by a retry step: run this node and everything downstream of it again. */
  rerun?: { target: string, reason: string }
}

export interface StepContext<C> {
  node: WorkflowNode
  /** The config with every reference rendered, validated by the step's schema. */
  config: C
  /** 1 on the first run of this node, +1 on each re-run through a retry. */
  attempt: number
  input: unknown
  signal: AbortSignal
  providers: Providers
  /** The workflow's settings (`settings.env`: the variables an http step's headers may read). */
  settings: WorkflowSettings
  /** The app's registries, evaluation workers, trace cache and config folder (see EvaluationServices). */
  evaluation: EvaluationServices
  /** `false` when the caller asked to bypass the LLM response cache for this run. */
  cache: boolean | undefined
  /** How many times a node has run so far in this run. */
  runsOf(nodeId: string): number
}

/**
 * What a step type declares without running: its config schema and its shape in the graph.
 * Browser-safe (each step's `spec.ts` imports only zod and schemas), so the editor validates
 * with exactly the schemas the server uses.
 */
export interface StepSpec<C = unknown> {
  type: string
  label: string
  /** One sentence for the editor's palette. */
  description: string
  configSchema: z.ZodType<C>
  /** Named outgoing branches; an edge's `when` must be one of these. */
  branches?: readonly string[]
  /** Config fields holding node ids, not templates (validated as node references). */
  nodeRefFields?: readonly string[]
  /** The config field naming the node this step loops back to; it must lie upstream. */
  loopTargetField?: string
  /** `false` for steps whose work cannot be replaced by a fixed output (retry). */
  pinnable?: boolean
  /** Config fields only the step's own run uses (an LLM's model): a step with pinned outputs may leave them out. */
  pinnedOptional?: readonly string[]
  /**
   * What the step outputs, from its config as written (references unrendered, possibly invalid):
   * an object's fields and their types. References to the step are checked against it
   * (engine/graph/references.ts); tests/unit/steps/outputs.test.ts holds it to what runs output.
   */
  outputs?(config: Record<string, unknown>): OutputField
  /**
   * Config fields whose texts may read `{{env.NAME}}` (an http step's headers): rendering leaves
   * such a reference as written and the step puts the value in as it sends it. Anywhere else it is refused.
   */
  secretFields?: readonly string[]
  /** The output field that is this step's text (llm: `text`), for a step downstream that takes it. */
  textField?: string
  /**
   * Config a step takes from the graph when its own leaves it out (an evaluator without `content`
   * judges its single upstream step's text), or a warning when the graph cannot tell.
   */
  fromGraph?(config: Record<string, unknown>, upstream: readonly UpstreamStep[]): GraphDefaults
  /**
   * What the step's run refuses in this config (its graph defaults filled in), found without
   * running it, each naming its config field: the editor flags these on the step.
   */
  runProblems?(config: Record<string, unknown>): ReadonlyArray<{ path: string, message: string }>
}

/** A node with an edge into the step, and its type's spec. */
export interface UpstreamStep {
  id: string
  spec?: StepSpec
}

export interface GraphDefaults {
  /** Merged under the node's own config before references are rendered. */
  config?: Record<string, unknown>
  /** A field the step would take from the graph but cannot: which one, and what to do. */
  warning?: { field: string, message: string }
}

/** Step types by name: the registry of runnable steps, or the editor's specs. */
export interface StepSpecs {
  get(type: string): StepSpec | undefined
  types(): string[]
}

export interface StepDefinition<C = unknown> extends StepSpec<C> {
  /** The branch a pinned output stands for (e.g. a condition's `result`). */
  branchOf?(output: unknown): string | undefined
  /** The `provider:model` this config will call, so a missing key is reported before the run. */
  modelOf?(config: C): string | readonly string[] | undefined
  run(ctx: StepContext<C>): Promise<StepOutcome>
}

/** The config a step spec's schema gives. */
export type StepConfig<S extends StepSpec<any>> = S extends StepSpec<infer C> ? C : never

const pinnedSchemas = new WeakMap<StepSpec<any>, z.ZodType>()

/**
 * The schema a node's config is checked with: a node with pinned outputs never runs its step, so
 * the fields only its run uses (`pinnedOptional`) may be left out.
 */
export function nodeConfigSchema<C>(spec: StepSpec<C>, node: { pinned?: readonly unknown[] }): z.ZodType<C> {
  if (!node.pinned?.length || !spec.pinnedOptional?.length) return spec.configSchema
  let schema = pinnedSchemas.get(spec)
  if (!schema) {
    const mask = Object.fromEntries(spec.pinnedOptional.map(field => [field, true as const]))
    schema = (spec.configSchema as unknown as z.ZodObject).partial(mask as Record<string, true>)
    pinnedSchemas.set(spec, schema)
  }
  return schema as z.ZodType<C>
}

export function defineStepSpec<C>(spec: StepSpec<C>): StepSpec<C> {
  return spec
}

/** Keeps the config type of each definition while letting the registry hold them together. */
export function defineStep<C>(definition: StepDefinition<C>): StepDefinition<C> {
  return definition
}
